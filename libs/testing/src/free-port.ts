import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback port free right now (for a child process that must be told its port). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
