import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { DataSource } from 'typeorm';
import { createDataSource, EventReader } from '../libs/store/src/index.js';
import { IngestProducer, QUEUE_DRIVER, type QueueDriver } from '../libs/queue/src/index.js';
import { createTestContext, deploymentObservation, freePort, waitFor, type TestContext } from '../libs/testing/src/index.js';
import { startApplication, type RunningApplication } from '../apps/bootstrap.js';

// 500 SSE streams on the real api (Postgres, Redis, BullMQ) while observations are ingested: the
// streams share one tail, so ingest, projections and reads keep their pace.

const STREAMS = 500;
const CATCHING_UP = 100; // of which these start in the past (?since=0:0): own catch-up, then the shared tail
const OTHER_CALLER_SLOTS = 20; // STREAMS_MAX = STREAMS + this; STREAMS_MAX_PER_CALLER = STREAMS

interface Stream {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly ids: string[];
  body: string;
  close(): void;
}

/** Opens `GET path` as a raw HTTP request (no connection pool), from `localAddress`; resolves at the response head. */
function open(base: string, path: string, localAddress = '127.0.0.1'): Promise<Stream> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    let req: ClientRequest;
    req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, agent: false, localAddress }, (res) => {
      const s: Stream = { status: res.statusCode ?? 0, headers: res.headers, ids: [], body: '', close: () => req.destroy() };
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (s.status !== 200) return void (s.body += chunk);
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (.*)$/m.exec(message)?.[1];
          if (/^event: event$/m.test(message) && id && /^data: \{.*"cursor"/m.test(message)) s.ids.push(id);
        }
      });
      res.on('error', () => undefined);
      resolve(s);
    });
    req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
    req.end();
  });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

describe('event streams under load (500 SSE clients, continuous ingest)', () => {
  let ctx: TestContext;
  let ds: DataSource;
  let app: RunningApplication;
  let base: string;
  const streams: Stream[] = [];

  const get = async (path: string) => {
    const t = Date.now();
    const res = await fetch(base + path);
    return { status: res.status, body: (await res.json()) as any, ms: Date.now() - t };
  };
  const cursors = async (afterSeq: string) =>
    (await ds.query(`SELECT xid::text || ':' || seq::text AS c FROM events WHERE seq > $1::bigint ORDER BY xid, seq`, [afterSeq])).map(
      (r: { c: string }) => r.c,
    ) as string[];

  beforeAll(async () => {
    ctx = await createTestContext('streams');
    ds = await createDataSource(ctx.database.url, 2, 'ssa-audit-test').initialize();
    const config = ctx.config({
      PORT: String(await freePort()),
      STREAMS_MAX: String(STREAMS + OTHER_CALLER_SLOTS),
      STREAMS_MAX_PER_CALLER: String(STREAMS),
      // 500 streams and their readers from one address: this test is about the stream caps, not the request rate.
      API_RATE_LIMIT: '0',
    });
    app = await startApplication(config, { roles: ['api', 'worker'], migrate: false });
    base = app.url!;
  }, 60_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    await app?.close();
    await ds?.destroy();
    await ctx?.dispose();
  });

  it('delivers every event to every stream, keeps changes answerable within 2 s and /v1/managers fast, with a handful of read connections; caps answer 429', async () => {
    const producer = app.app.get(IngestProducer);
    const probeUid = 'a0000000-0000-4000-8000-000000000000';
    // A first few objects, so streams starting at 0:0 have something to catch up on.
    await producer.enqueue([probeUid, ...Array.from({ length: 19 }, (_, i) => `b0000000-0000-4000-8000-${String(i).padStart(12, '0')}`)].map(
      (uid) => deploymentObservation({ uid, resourceVersion: '1', cluster: 'load' }),
    ));
    const probeId = await waitFor('the probe object', async () => {
      const [r] = await ds.query(`SELECT id::text AS id FROM objects WHERE uid = $1`, [probeUid]);
      return r && (await get(`/v1/objects/${r.id}/fields?path=.spec.replicas`)).body.value === 3 ? (r.id as string) : undefined;
    });
    const driver = app.app.get<QueueDriver>(QUEUE_DRIVER);
    await waitFor('the first objects to be stored', async () => (await driver.pending('ingest')) === 0);
    const [{ seq: seq0 }] = await ds.query(`SELECT coalesce(max(seq), 0)::text AS seq FROM events`);

    // 500 streams from one caller: 400 at the end of the log, 100 from the beginning.
    const t0 = Date.now();
    for (let i = 0; i < STREAMS; i += 50) {
      streams.push(...(await Promise.all(Array.from({ length: 50 }, (_, j) => open(base, i + j < CATCHING_UP ? '/v1/events/stream?since=0:0' : '/v1/events/stream')))));
    }
    const openMs = Date.now() - t0;
    expect(streams.map((s) => s.status)).toEqual(Array(STREAMS).fill(200));
    expect(streams[0]!.headers['content-type']).toContain('text/event-stream');
    await waitFor('the catching-up streams to reach the tail', async () => streams.slice(0, CATCHING_UP).every((s) => s.ids.length >= 20), 20_000);

    // Continuous ingest for ~6 s: 4 observations every 200 ms (changes of 40 objects), and the probe changes now and then.
    const reader = app.app.get(EventReader);
    const readAfter = jest_spyCount(reader, 'readAfter');
    const readConnections: number[] = [];
    const activeReads: number[] = [];
    const managersMs: number[] = [];
    const answerMs: number[] = [];
    let ingesting = true;
    const ingest = (async () => {
      let rv = 2;
      while (ingesting) {
        await producer.enqueue(
          Array.from({ length: 4 }, (_, i) =>
            deploymentObservation({ uid: `c0000000-0000-4000-8000-${String((rv * 4 + i) % 40).padStart(12, '0')}`, resourceVersion: String(rv), replicas: rv, cluster: 'load' }),
          ),
        );
        rv++;
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const sample = (async () => {
      while (ingesting) {
        const [r] = await ds.query(
          `SELECT count(*)::int AS n, (count(*) FILTER (WHERE state = 'active'))::int AS active
           FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'ssa-audit-read'`,
        );
        readConnections.push(r.n);
        activeReads.push(r.active);
        const m = await get('/v1/managers');
        expect(m.status).toBe(200);
        managersMs.push(m.ms);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    for (let round = 1; round <= 4; round++) {
      await new Promise((r) => setTimeout(r, 1000)); // under way: ingest running, every stream receiving
      const replicas = 10 + round;
      const at = Date.now();
      await producer.enqueue([deploymentObservation({ uid: probeUid, resourceVersion: String(100 + round), replicas, cluster: 'load' })]);
      await waitFor('the change to be answerable', async () => (await get(`/v1/objects/${probeId}/fields?path=.spec.replicas`)).body.value === replicas, 10_000, 20);
      answerMs.push(Date.now() - at);
    }
    const readsDuringLoad = readAfter.calls();
    const loadSeconds = (Date.now() - readAfter.since) / 1000;
    ingesting = false;
    await Promise.all([ingest, sample]);

    // (a) every stream receives every event after its start, in order, once.
    await waitFor('ingest to drain', async () => (await driver.pending('ingest')) === 0, 20_000);
    const [{ seq: seqEnd }] = await ds.query(`SELECT max(seq)::text AS seq FROM events`);
    const all = await cursors('0');
    const fresh = await cursors(seq0);
    expect(fresh.length).toBeGreaterThan(50);
    await waitFor('every stream to receive every event', async () => streams.every((s) => s.ids[s.ids.length - 1] === fresh[fresh.length - 1]), 20_000);
    for (const [i, s] of streams.entries()) {
      if (i < CATCHING_UP) expect(s.ids).toEqual(all);
      else expect(s.ids.slice(-fresh.length)).toEqual(fresh);
      expect(new Set(s.ids).size).toBe(s.ids.length);
    }
    // (b) a change is answerable within 2 s of being enqueued; (c) /v1/managers answers fast.
    expect(Math.max(...answerMs)).toBeLessThan(2000);
    expect(pct(managersMs, 95)).toBeLessThan(1000);
    // (d) the streams cost one read per poll, not one per stream; a handful of read connections.
    expect(readsDuringLoad / loadSeconds).toBeLessThan(10);
    // Open connections include those the 100 catch-ups opened at once (idle until the pool's 10 s timeout).
    expect(Math.max(...readConnections)).toBeLessThanOrEqual(10);
    expect(Math.max(...activeReads)).toBeLessThanOrEqual(3);

    // (e) the caps: per caller (this one has 500 open), then per process (520).
    const overCaller = await open(base, '/v1/events/stream');
    await new Promise((r) => setTimeout(r, 100));
    expect(overCaller.status).toBe(429);
    expect(overCaller.headers['retry-after']).toBe('10');
    expect(JSON.parse(overCaller.body)).toMatchObject({ code: 'too-many-streams', message: expect.stringContaining('STREAMS_MAX_PER_CALLER') });
    const other = await Promise.all(Array.from({ length: OTHER_CALLER_SLOTS }, () => open(base, '/v1/events/stream', '127.0.0.2')));
    streams.push(...other);
    expect(other.map((s) => s.status)).toEqual(Array(OTHER_CALLER_SLOTS).fill(200));
    const overProcess = await open(base, '/v1/events/stream', '127.0.0.3');
    await new Promise((r) => setTimeout(r, 100));
    expect(overProcess.status).toBe(429);
    expect(JSON.parse(overProcess.body)).toMatchObject({ code: 'too-many-streams', message: expect.stringContaining('STREAMS_MAX') });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/^ssa_audit_event_streams_open 520$/m);
    // A closed stream frees its slot.
    other[0]!.close();
    const again = await waitFor('a freed slot', async () => {
      const s = await open(base, '/v1/events/stream', '127.0.0.3');
      if (s.status === 200) return s;
      s.close();
      return undefined;
    }, 5000, 50);
    streams.push(again);

    console.log(JSON.stringify({
      streams: STREAMS, openAllMs: openMs, eventsDuringLoad: fresh.length, lastSeq: seqEnd,
      answerMs, managersMs: { p50: pct(managersMs, 50), p95: pct(managersMs, 95), max: Math.max(...managersMs) },
      readAfterPerSecond: +(readsDuringLoad / loadSeconds).toFixed(2), readConnectionsMax: Math.max(...readConnections), activeReadsMax: Math.max(...activeReads), activeReadsMean: +(activeReads.reduce((a, b) => a + b, 0) / activeReads.length).toFixed(2),
    }));
  }, 120_000);
});

/** Counts calls of `obj[name]` from now on (jest's spy is not a global in ESM). */
function jest_spyCount<T extends object, K extends keyof T>(obj: T, name: K): { calls(): number; since: number } {
  const original = obj[name] as unknown as (...a: unknown[]) => unknown;
  let n = 0;
  (obj as Record<K, unknown>)[name] = function (this: unknown, ...a: unknown[]) {
    n++;
    return original.apply(this, a);
  };
  return { calls: () => n, since: Date.now() };
}
