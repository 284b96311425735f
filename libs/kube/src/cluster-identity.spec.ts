import { clusterIdentity } from './cluster-identity.js';
import type { KubeClient } from './kube-client.js';
import { KubeError } from './kube.exception.js';

const client = (answer: () => unknown) => ({ cluster: 'c', json: async (path: string) => (path === '/api/v1/namespaces/kube-system' ? answer() : undefined) }) as unknown as KubeClient;

describe('clusterIdentity', () => {
  it('is the uid of the kube-system namespace', async () => {
    await expect(clusterIdentity(client(() => ({ metadata: { name: 'kube-system', uid: 'u-1' } })))).resolves.toBe('u-1');
  });

  it('throws NO_IDENTITY with the status when it cannot be read (RBAC: get namespaces/kube-system)', async () => {
    const e = await clusterIdentity(client(() => { throw new KubeError('HTTP', 'forbidden', 403); })).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(KubeError);
    expect(e).toMatchObject({ code: 'NO_IDENTITY', status: 403 });
    await expect(clusterIdentity(client(() => ({ metadata: {} })))).rejects.toMatchObject({ code: 'NO_IDENTITY' });
  });
});
