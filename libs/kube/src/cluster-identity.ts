import type { KubeClient } from './kube-client.js';
import { KubeError } from './kube.exception.js';

/**
 * The identity of the cluster behind a client: the uid of its `kube-system` namespace, which no
 * one deletes and a rebuilt cluster gets anew (the convention of cluster-api and multicluster
 * tooling). A resume position is only meaningful together with the identity it was taken from.
 * Needs RBAC `get` on `namespaces` (resourceNames: kube-system). Throws `KubeError` `NO_IDENTITY`
 * (with the HTTP status when there was one) when it cannot be read.
 */
export async function clusterIdentity(client: KubeClient, signal?: AbortSignal): Promise<string> {
  let ns: { metadata?: { uid?: unknown } };
  try {
    ns = await client.json<{ metadata?: { uid?: unknown } }>('/api/v1/namespaces/kube-system', {}, signal ? { signal } : {});
  } catch (e) {
    const status = e instanceof KubeError ? e.status : undefined;
    throw new KubeError('NO_IDENTITY', `cluster ${client.cluster}: cannot read the kube-system namespace: ${(e as Error).message}`, status);
  }
  const uid = ns?.metadata?.uid;
  if (typeof uid !== 'string' || uid === '') throw new KubeError('NO_IDENTITY', `cluster ${client.cluster}: the kube-system namespace has no uid`);
  return uid;
}
