import { get, type ClientRequest } from 'node:http';
import { CM } from './fault-churn.js';
import { startFaultHarness, sleep, type FaultHarness } from './fault-harness.js';

// 500 clients follow GET /v1/events/stream (server-sent events) during a churn. The API must keep
// answering: the last write is answerable within 2 s, and every stream still delivers.

interface Stream {
  events: number;
  closed: boolean;
  request: ClientRequest;
}

function openStream(api: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const s: Stream = { events: 0, closed: false, request: undefined as unknown as ClientRequest };
    s.request = get(`${api}/v1/events/stream`, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (s.events += chunk.split('event: event').length - 1));
      res.on('close', () => (s.closed = true));
      resolve(s);
    });
    s.request.on('error', (e) => (s.closed ? undefined : reject(e)));
  });
}

describe('500 SSE streams open', () => {
  let h: FaultHarness;
  let streams: Stream[] = [];
  afterEach(async () => {
    for (const s of streams) s.request.destroy();
    await h?.dispose();
  }, 60_000);

  it('during a churn: the last write answerable within 2 s, every stream still delivering', async () => {
    // 500 dashboards behind one address (the test's loopback): the per-caller cap must let them in.
    h = await startFaultHarness('sse-streams', { env: { STREAMS_MAX_PER_CALLER: '600' } });
    await h.waitForEvents(h.names.length, 60_000);
    for (let i = 0; i < 10; i++) streams.push(...(await Promise.all(Array.from({ length: 50 }, () => openStream(h.api)))));
    const churn = h.churn();
    await sleep(8_000);
    await churn.stop();

    const name = h.names[0]!;
    const { items } = (await (await fetch(`${h.api}/v1/objects?kind=ConfigMap&namespace=faults&name=${name}`)).json()) as { items: { id: string; deleted: boolean }[] };
    const id = items.find((o) => !o.deleted)!.id;
    const marker = `marker-${Date.now()}`;
    await h.writer.patch(CM, name, { data: { a: marker } }, 'churn-data');
    const written = Date.now();
    let answeredMs = Infinity;
    while (Date.now() - written < 10_000) {
      const f = (await (await fetch(`${h.api}/v1/objects/${id}/fields?path=.data.a`)).json()) as { value: unknown };
      if (f.value === marker) {
        answeredMs = Date.now() - written;
        break;
      }
      await sleep(50);
    }
    console.log(`[faults] with ${streams.length} SSE streams open the last write was answered after ${answeredMs} ms`);
    expect(answeredMs).toBeLessThan(2_000);
    expect(streams.filter((s) => s.closed).length).toBe(0);
    expect(streams.filter((s) => s.events === 0).length).toBe(0);
    await h.verify({ since: written });
  }, 180_000);
});
