import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The first port of the kernel's ephemeral range (`ip_local_port_range`), from which it picks the
 * local ports of outgoing connections; 32768 where that cannot be read (Linux's default).
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 10_001 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Resolves with `port` when it can be listened on at 127.0.0.1 now, with `null` when it cannot. */
function tryListen(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(null));
    s.listen(port, '127.0.0.1', () => {
      const a = s.address();
      const bound = typeof a === 'object' && a ? a.port : null;
      s.close(() => resolve(bound));
    });
  });
}

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, below the kernel's ephemeral range: a port the
 * kernel hands out itself (port 0) can be taken as the local port of some outgoing connection (a
 * database client's, say) between this check and the caller's listen, which then fails with
 * EADDRINUSE; the ports below that range are only ever taken by listeners, which the check sees.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await tryListen(10_000 + Math.floor(Math.random() * (low - 10_000)));
    if (port !== null) return port;
  }
  const any = await tryListen(0);
  if (any === null) throw new Error('no free TCP port on 127.0.0.1');
  return any;
}
