import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeClient } from './kube-client.js';

// KubeClient against a local HTTP server that sends its answers in chosen pieces.

const kubeconfig = (server: string) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server } }],
    users: [{ name: 'u', user: { token: 't' } }],
    contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'ctx',
  });

const pause = () => new Promise((r) => setTimeout(r, 30));

describe('KubeClient', () => {
  let server: Server;
  let client: KubeClient;
  /** The bytes the server sends, piece by piece (a pause between pieces: separate chunks). */
  let pieces: Buffer[] = [];
  beforeAll(async () => {
    server = createServer(async (_req, res) => {
      res.socket?.setNoDelay(true);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      for (const p of pieces) {
        res.write(p);
        await pause();
      }
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    client = KubeClient.fromKubeconfig(kubeconfig(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it('keeps a character whose UTF-8 bytes arrive in two chunks of a watch stream', async () => {
    const line = Buffer.from(`${JSON.stringify({ type: 'ADDED', object: { v: 'é€😀' } })}\n`);
    // Cut inside each multi-byte character.
    const cuts = [line.indexOf(Buffer.from('é')) + 1, line.indexOf(Buffer.from('€')) + 2, line.indexOf(Buffer.from('😀')) + 3];
    pieces = [line.subarray(0, cuts[0]), line.subarray(cuts[0], cuts[1]), line.subarray(cuts[1], cuts[2]), line.subarray(cuts[2])];
    const lines: unknown[] = [];
    await client.stream('/api/v1/configmaps', { watch: 1 }, (l) => void lines.push(l), new AbortController().signal);
    expect(lines).toEqual([{ type: 'ADDED', object: { v: 'é€😀' } }]);
  });

  it('answers a JSON request with its size in bytes', async () => {
    const body = Buffer.from(JSON.stringify({ items: [{ v: 'é' }] }));
    pieces = [body.subarray(0, 12), body.subarray(12)];
    await expect(client.jsonSized('/api/v1/configmaps')).resolves.toEqual({ body: { items: [{ v: 'é' }] }, bytes: body.length });
  });
});
