import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubectlContext } from './kubectl-context.js';
import { forwardPodPort } from './pod-port-forward.js';

describe('forwardPodPort', () => {
  let dir: string;
  let apiserver: Server;
  const held: Socket[] = [];
  let reached: () => void;
  const apiserverReached = new Promise<void>((resolve) => (reached = resolve));

  beforeAll(async () => {
    // An apiserver that accepts the port-forward's connection and never answers: the forwarded connection stays open.
    apiserver = createServer((s) => {
      held.push(s);
      reached();
    });
    await new Promise<void>((resolve) => apiserver.listen(0, '127.0.0.1', resolve));
    dir = mkdtempSync(join(tmpdir(), 'port-forward-'));
  });

  afterAll(async () => {
    for (const s of held) s.destroy();
    await new Promise((resolve) => apiserver.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('closes while a connection is still open (a keep-alive one, as fetch leaves them)', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    const server = `http://127.0.0.1:${(apiserver.address() as AddressInfo).port}`;
    writeFileSync(
      kubeconfig,
      JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server } }], users: [{ name: 'u', user: { token: 't' } }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x' }),
    );
    const forward = await forwardPodPort(KubectlContext.load({ kubeconfig }), 'ns', 'pod', 3000);
    const { port } = new URL(forward.url);
    const client = new Socket();
    const ended = new Promise((resolve) => client.once('close', resolve));
    await new Promise<void>((resolve) => client.connect(Number(port), '127.0.0.1', resolve));
    await apiserverReached;
    await forward.close();
    await ended;
  }, 5_000);
});
