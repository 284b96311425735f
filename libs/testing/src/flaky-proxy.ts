import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP proxy on the loopback that can cut every connection through it (the connection-drop tests). */
export interface FlakyProxy {
  readonly url: string;
  /** Connections open now. */
  readonly open: number;
  /** Destroys each open connection with probability `share`; returns how many were cut. */
  cut(share?: number): number;
  /** Stops forwarding on every open connection without closing it (a silently dead link); returns how many. */
  freeze(): number;
  /** While refusing, new connections are closed at once. */
  refuse(on: boolean): void;
  close(): Promise<void>;
}

export async function startFlakyProxy(targetPort: number, random: () => number = Math.random): Promise<FlakyProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(targetPort, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get open() {
      return pairs.size;
    },
    cut(share = 1) {
      let n = 0;
      for (const [a, b] of [...pairs]) {
        if (random() >= share) continue;
        a.destroy();
        b.destroy();
        n++;
      }
      return n;
    },
    freeze() {
      for (const [a, b] of pairs) {
        a.unpipe(b);
        b.unpipe(a);
        a.pause();
        b.pause();
      }
      return pairs.size;
    },
    refuse(on) {
      refusing = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [a, b] of pairs) {
          a.destroy();
          b.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
