import type { KubeClient } from '../../../libs/kube/src/kube-client.js';
import type { DiscoveredResource } from './resource-ref.js';

interface ResourceList {
  readonly resources?: readonly { name: string; singularName?: string; kind: string; namespaced: boolean; shortNames?: readonly string[] }[];
}
interface GroupList {
  readonly groups?: readonly { name: string; preferredVersion?: { version: string }; versions?: readonly { version: string }[] }[];
}

/**
 * Every resource type of the cluster in its group's preferred version, in discovery order (the core
 * group first), with the short and singular names kubectl resolves (the watcher's discovery drops those).
 */
export async function discoverResourceTypes(client: KubeClient): Promise<DiscoveredResource[]> {
  const groups = await client.json<GroupList>('/apis');
  const lists: { group: string; version: string; list: Promise<ResourceList> }[] = [{ group: '', version: 'v1', list: client.json<ResourceList>('/api/v1') }];
  for (const g of groups.groups ?? []) {
    const version = g.preferredVersion?.version ?? g.versions?.[0]?.version;
    if (version) lists.push({ group: g.name, version, list: client.json<ResourceList>(`/apis/${g.name}/${version}`) });
  }
  const out: DiscoveredResource[] = [];
  for (const { group, version, list } of lists) {
    const rl = await list.catch(() => ({}) as ResourceList); // a group going away mid-discovery is not an error
    for (const r of rl.resources ?? []) {
      if (r.name.includes('/')) continue;
      out.push({ group, version, resource: r.name, singular: r.singularName || r.kind.toLowerCase(), kind: r.kind, shortNames: r.shortNames ?? [], namespaced: r.namespaced });
    }
  }
  return out;
}
