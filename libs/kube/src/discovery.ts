import type { KubeClient } from './kube-client.js';
import { KubeError } from './kube.exception.js';

/** A resource the watcher can list and watch, in its group's preferred version. */
export interface ApiResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** A resource as a group-version's discovery document (`APIResourceList`) serves it. */
export interface ServedResource {
  readonly name: string;
  readonly singularName?: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
  readonly verbs?: readonly string[];
}

/** The resources one group-version serves (subresources left out). */
export interface GroupVersionResources {
  readonly group: string;
  readonly version: string;
  readonly resources: readonly ServedResource[];
}

interface ResourceList {
  readonly resources?: readonly ServedResource[];
}
interface GroupList {
  readonly groups?: readonly { name: string; preferredVersion?: { version: string }; versions?: readonly { version: string }[] }[];
}

/** `resource.group` as kubectl names it (`pods`, `deployments.apps`). */
export const resourceKey = (r: Pick<ApiResource, 'group' | 'resource'>): string => (r.group === '' ? r.resource : `${r.resource}.${r.group}`);

/** The `/api/v1` or `/apis/{group}/{version}` prefix of a resource. */
export const groupVersionPath = (r: Pick<ApiResource, 'group' | 'version'>): string => (r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`);

/**
 * The cluster's discovery: the resources of the core group (`/api/v1`) and of every group of `/apis`
 * in its preferred version, in discovery order (the core group first), subresources left out.
 */
export async function fetchGroupVersionResources(client: KubeClient, signal?: AbortSignal): Promise<GroupVersionResources[]> {
  const opts = signal ? { signal } : {};
  // Every request starts at once and is awaited below; each is marked handled now, so one that
  // fails after an earlier await threw (an unreachable cluster) is no unhandled rejection, which
  // would end the whole process and with it the watching of every other cluster.
  const request = (path: string): Promise<ResourceList> => {
    const p = client.json<ResourceList>(path, {}, opts);
    p.catch(() => undefined);
    return p;
  };
  const lists: { group: string; version: string; list: Promise<ResourceList> }[] = [{ group: '', version: 'v1', list: request('/api/v1') }];
  const groups = await client.json<GroupList>('/apis', {}, opts);
  for (const g of groups.groups ?? []) {
    const version = g.preferredVersion?.version ?? g.versions?.[0]?.version;
    if (version) lists.push({ group: g.name, version, list: request(`/apis/${g.name}/${version}`) });
  }
  const out: GroupVersionResources[] = [];
  for (const { group, version, list } of lists) {
    let rl: ResourceList;
    try {
      rl = await list;
    } catch (e) {
      // A group-version answering an error (a CRD deleted mid-discovery, an aggregated API down) is
      // left out; no answer at all, or none for the core group, fails the discovery: otherwise the
      // watches of what went missing would be stopped as if no longer served.
      if (group === '' || !(e instanceof KubeError) || e.status === undefined) throw e;
      continue;
    }
    out.push({ group, version, resources: (rl.resources ?? []).filter((r) => !r.name.includes('/')) });
  }
  return out;
}

/**
 * Every resource that supports list and watch (subresources left out), each once, in its group's
 * preferred version — the same objects are served by every version, so one watch suffices.
 */
export async function discoverResources(client: KubeClient, signal?: AbortSignal): Promise<ApiResource[]> {
  const out: ApiResource[] = [];
  for (const { group, version, resources } of await fetchGroupVersionResources(client, signal)) {
    for (const r of resources) {
      const verbs = r.verbs ?? [];
      if (!verbs.includes('list') || !verbs.includes('watch')) continue;
      out.push({ group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced });
    }
  }
  return out.sort((a, b) => (resourceKey(a) < resourceKey(b) ? -1 : 1));
}

/** Glob match of kubectl-style patterns (`*` is any run of characters). */
export function matchesPattern(value: string, pattern: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(value);
}

/** Include/exclude by `resource.group` patterns: included by one include pattern and no exclude pattern. */
export function selectResources(resources: readonly ApiResource[], include: readonly string[], exclude: readonly string[]): ApiResource[] {
  return resources.filter((r) => {
    const k = resourceKey(r);
    return include.some((p) => matchesPattern(k, p)) && !exclude.some((p) => matchesPattern(k, p));
  });
}
