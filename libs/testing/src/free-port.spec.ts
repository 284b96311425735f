import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from './free-port.js';

const RANGE = '/proc/sys/net/ipv4/ip_local_port_range';

describe('freePort: a port to listen on, never one the kernel may give an outgoing connection meanwhile', () => {
  it('is below the ephemeral range and can be listened on', async () => {
    // Linux's own range (32768 where it cannot be read, as freePort assumes).
    const low = existsSync(RANGE) ? Number(readFileSync(RANGE, 'utf8').trim().split(/\s+/)[0]) : 32_768;
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low);
      await new Promise<void>((resolve, reject) => {
        const s = createServer();
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => s.close(() => resolve()));
      });
    }
  });
});
