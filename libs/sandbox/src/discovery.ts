import type { ResourceType } from './resource-type.js';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** Group-versions in the order discovery lists them: the core group, then groups by name. */
export function groupVersions(types: readonly ResourceType[]): { group: string; versions: string[] }[] {
  const byGroup = new Map<string, Set<string>>();
  for (const t of types) {
    if (!byGroup.has(t.group)) byGroup.set(t.group, new Set());
    byGroup.get(t.group)!.add(t.version);
  }
  return [...byGroup.entries()]
    .sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0))
    .map(([group, vs]) => ({ group, versions: [...vs].sort().reverse() }));
}

/** `/api`: the core group's versions. */
export function apiVersions(serverAddress: string): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function apiGroup(group: string, versions: string[]): object {
  const vs = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: vs, preferredVersion: vs[0] };
}

/** `/apis`: every named group. */
export function apiGroupList(types: readonly ResourceType[]): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groupVersions(types)
      .filter((g) => g.group !== '')
      .map((g) => apiGroup(g.group, g.versions)),
  };
}

/** `/apis/{group}`, or undefined when the group is not served. */
export function apiGroupDoc(types: readonly ResourceType[], group: string): object | undefined {
  const g = groupVersions(types).find((x) => x.group === group && group !== '');
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g.group, g.versions) } : undefined;
}

/** `/api/v1`, `/apis/{group}/{version}`: the resources of a group-version with their subresources. */
export function apiResourceList(types: readonly ResourceType[], group: string, version: string): object | undefined {
  const here = types.filter((t) => t.group === group && t.version === version).sort((a, b) => (a.plural < b.plural ? -1 : 1));
  if (here.length === 0) return undefined;
  const resources: object[] = [];
  for (const t of here) {
    resources.push({
      name: t.plural,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: VERBS,
      ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
      ...(t.categories.length ? { categories: t.categories } : {}),
    });
    if (t.scale) resources.push({ name: `${t.plural}/scale`, singularName: '', namespaced: t.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
    if (t.status) resources.push({ name: `${t.plural}/status`, singularName: '', namespaced: t.namespaced, kind: t.kind, verbs: ['get', 'patch', 'update'] });
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

/** The aggregated discovery version a client asks for in Accept (`apidiscovery.k8s.io/v2`…), if any. */
export function aggregatedDiscoveryVersion(accept: string | undefined): string | undefined {
  for (const range of (accept ?? '').split(',')) {
    const [type, ...params] = range.split(';').map((x) => x.trim());
    const p = Object.fromEntries(params.map((x) => x.split('=') as [string, string]));
    if (type === 'application/json' && !p['as']) return undefined;
    if (type === 'application/json' && p['as'] === 'APIGroupDiscoveryList' && p['g'] === 'apidiscovery.k8s.io' && (p['v'] === 'v2' || p['v'] === 'v2beta1'))
      return `apidiscovery.k8s.io/${p['v']}`;
  }
  return undefined;
}

/**
 * Aggregated discovery (`/api` or `/apis` answered as one APIGroupDiscoveryList): every group with
 * its versions, resources, scopes, verbs and subresources, in one response.
 */
export function aggregatedDiscovery(types: readonly ResourceType[], legacy: boolean, apiVersion: string): object {
  const groups = groupVersions(types).filter((g) => (g.group === '') === legacy);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion,
    metadata: {},
    items: groups.map((g) => ({
      metadata: { ...(g.group ? { name: g.group } : {}), creationTimestamp: null },
      versions: g.versions.map((version) => ({
        version,
        resources: types
          .filter((t) => t.group === g.group && t.version === version)
          .sort((a, b) => (a.plural < b.plural ? -1 : 1))
          .map((t) => ({
            resource: t.plural,
            responseKind: { group: t.group, version: t.version, kind: t.kind },
            scope: t.namespaced ? 'Namespaced' : 'Cluster',
            singularResource: t.singular,
            verbs: VERBS,
            ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
            ...(t.categories.length ? { categories: t.categories } : {}),
            ...(t.status || t.scale
              ? {
                  subresources: [
                    ...(t.scale ? [{ subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] }] : []),
                    ...(t.status ? [{ subresource: 'status', responseKind: { group: t.group, version: t.version, kind: t.kind }, verbs: ['get', 'patch', 'update'] }] : []),
                  ],
                }
              : {}),
          })),
        freshness: 'Current',
      })),
    })),
  };
}
