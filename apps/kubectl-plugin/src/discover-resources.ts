import { fetchGroupVersionResources } from '../../../libs/kube/src/discovery.js';
import type { KubeClient } from '../../../libs/kube/src/kube-client.js';
import type { DiscoveredResource } from './resource-ref.js';

/**
 * Every resource type of the cluster in its group's preferred version, in discovery order (the core
 * group first), with the short and singular names kubectl resolves (the watcher's discovery drops those).
 */
export async function discoverResourceTypes(client: KubeClient): Promise<DiscoveredResource[]> {
  return (await fetchGroupVersionResources(client)).flatMap(({ group, version, resources }) =>
    resources.map((r) => ({ group, version, resource: r.name, singular: r.singularName || r.kind.toLowerCase(), kind: r.kind, shortNames: r.shortNames ?? [], namespaced: r.namespaced })),
  );
}
