import { parseMessage, serverSentMessages } from './event-stream';

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
});
