import { followEvents, parseMessage, serverSentMessages } from './event-stream';

const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      c.close();
    },
  });

describe('server-sent events over fetch', () => {
  it('parses one message block (event, id, multi-line data); comments alone are no message', () => {
    expect(parseMessage('event: event\nid: 7:2\ndata: {"seq":"2"}')).toEqual({ event: 'event', id: '7:2', data: '{"seq":"2"}' });
    expect(parseMessage('data: a\ndata: b')).toEqual({ event: 'message', id: undefined, data: 'a\nb' });
    expect(parseMessage(': keep-alive')).toBeNull();
  });

  it('reassembles messages split across chunks, with CRLF line ends', async () => {
    const out = [];
    for await (const m of serverSentMessages(streamOf('event: event\r\nid: 1:1\r', '\nda', 'ta: {"seq":"1"}\r\n\r\n: ping\n\nevent: event\nid: 1:2\ndata: {"seq":"2"}\n\n'))) out.push(m);
    expect(out).toEqual([
      { event: 'event', id: '1:1', data: '{"seq":"1"}' },
      { event: 'event', id: '1:2', data: '{"seq":"2"}' },
    ]);
  });

  it('cancels the body when the reader stops early (the request ends)', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('event: event\nid: 1:1\ndata: {}\n\nevent: event\nid: 1:2\ndata: {}\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const m of serverSentMessages(body)) {
      expect(m.id).toBe('1:1');
      break;
    }
    expect(cancelled).toBe(true);
  });
});

describe('followEvents', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });
  const settle = () => new Promise((r) => setTimeout(r, 20));

  it('narrows to one cluster from the next message it gets (never "from now" in between), dropping the unfiltered stream', async () => {
    const urls: string[] = [];
    type Stream = { send: (chunk: string) => void; cancelled: boolean };
    const streams: Stream[] = [];
    globalThis.fetch = (async (url: string) => {
      urls.push(url);
      const s: Stream = { send: () => undefined, cancelled: false };
      streams.push(s);
      return new Response(new ReadableStream<Uint8Array>({
        start(c) {
          s.send = (chunk) => c.enqueue(new TextEncoder().encode(chunk));
        },
        cancel() {
          s.cancelled = true;
        },
      }), { status: 200 });
    }) as typeof fetch;
    const seen: string[] = [];
    const follower = followEvents((e) => seen.push(e.seq));
    try {
      await settle();
      follower.onlyCluster('east/1');
      await settle();
      expect(urls).toEqual(['/v1/events/stream']);
      streams[0]!.send('event: event\nid: 7:41\ndata: {"seq":"41","cluster":"west"}\n\n');
      await settle();
      expect(seen).toEqual(['41']);
      expect(streams[0]!.cancelled).toBe(true);
      expect(urls).toEqual(['/v1/events/stream', '/v1/events/stream?since=7%3A41&cluster=east%2F1']);
      streams[1]!.send('event: event\nid: 7:42\ndata: {"seq":"42","cluster":"east/1"}\n\n');
      await settle();
      expect(seen).toEqual(['41', '42']);
      expect(urls).toHaveLength(2);
    } finally {
      follower.stop();
    }
  });
});
