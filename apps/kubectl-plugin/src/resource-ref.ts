import { usageError } from './plugin.error.js';

/** A resource type as the cluster's discovery serves it (subresources left out). */
export interface DiscoveredResource {
  readonly group: string;
  readonly version: string;
  /** The plural name (`deployments`). */
  readonly resource: string;
  readonly singular: string;
  readonly kind: string;
  readonly shortNames: readonly string[];
  readonly namespaced: boolean;
}

/** `TYPE/NAME` as typed: `deploy/web`, `deployments.apps/web`, `deployment.v1.apps/web`. */
export interface ObjectRef {
  readonly type: string;
  readonly name: string;
}

export function parseObjectRef(arg: string): ObjectRef {
  const slash = arg.indexOf('/');
  const type = arg.slice(0, slash);
  const name = arg.slice(slash + 1);
  if (slash <= 0 || name === '' || name.includes('/')) throw usageError(`expected TYPE/NAME (like deploy/web or configmap/config), got "${arg}"`);
  return { type, name };
}

/**
 * The resource `type` names, as kubectl resolves it: a plural, singular, short name or kind
 * (case-insensitive), optionally qualified by `.group` or `.version.group`. `resources` in discovery
 * order (the core group first); when several groups serve the name, the first wins, as in kubectl.
 */
export function resolveResource(type: string, resources: readonly DiscoveredResource[]): DiscoveredResource | undefined {
  const t = type.toLowerCase();
  const names = (r: DiscoveredResource) => [r.resource, r.singular, r.kind.toLowerCase()];
  // Unqualified: plural, singular or kind first, then short names (kubectl expands short names only when nothing else matches).
  const plain = resources.find((r) => names(r).includes(t)) ?? resources.find((r) => r.shortNames.includes(t));
  if (plain) return plain;
  const dot = t.indexOf('.');
  if (dot <= 0) return undefined;
  const head = t.slice(0, dot);
  const rest = t.slice(dot + 1);
  const named = (r: DiscoveredResource) => names(r).includes(head) || r.shortNames.includes(head);
  // `resource.group`, then `resource.version.group`.
  const byGroup = resources.find((r) => named(r) && r.group === rest);
  if (byGroup) return byGroup;
  const dot2 = rest.indexOf('.');
  if (dot2 <= 0) return undefined;
  const version = rest.slice(0, dot2);
  const group = rest.slice(dot2 + 1);
  return resources.find((r) => named(r) && r.group === group && r.version === version);
}

/** How kubectl names an object in its output: `deployment.apps/web`, `pod/nginx`. */
export function kubectlObjectName(r: Pick<DiscoveredResource, 'kind' | 'group'>, name: string): string {
  const kind = r.kind.toLowerCase();
  return `${r.group === '' ? kind : `${kind}.${r.group}`}/${name}`;
}

/** An object as the plugin's headings name it: `deployment.apps/web -n shop`, `namespace/shop`. */
export function objectLabel(r: Pick<DiscoveredResource, 'kind' | 'group'>, name: string, namespace: string | null | undefined): string {
  return `${kubectlObjectName(r, name)}${namespace ? ` -n ${namespace}` : ''}`;
}
