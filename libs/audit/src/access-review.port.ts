import type { Caller } from './caller.types.js';

/** What a SubjectAccessReview asks about: a verb on a resource (in a namespace, of a name). */
export interface ResourceAccess {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  /** '' for cluster-scoped resources and cluster-wide checks. */
  readonly namespace: string;
  readonly name?: string;
}

/** Where tracked objects live, as RBAC grants them: a resource of a group in a namespace ('' cluster-scoped) of a cluster. */
export interface AccessScope {
  readonly cluster: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace: string;
}

/** A tracked object as access checks see it. */
export interface ObjectAccessIdentity extends AccessScope {
  readonly name: string;
}

/** Port: may this caller do this in this cluster (null: the cluster that authenticates)? Throws when the cluster cannot answer. */
export interface AccessReviewer {
  allowed(caller: Caller, cluster: string | null, access: ResourceAccess): Promise<boolean>;
}

/** Injection token of the {@link AccessReviewer}. */
export const ACCESS_REVIEWER = Symbol('ACCESS_REVIEWER');

/** The API group of ssa-audit's own resources in RBAC rules (no API serves it; RBAC grants it anyway). */
export const SERVICE_API_GROUP = 'ssa-audit.io';

/** Seeing anything about an object needs what reading the object itself needs: `get` on it, in its namespace. */
export function objectAccess(o: ObjectAccessIdentity): ResourceAccess {
  return { verb: 'get', group: o.group, resource: o.resource, namespace: o.namespace, name: o.name };
}

/**
 * Aggregates (managers, manager fields, findings) count an object when its caller may `get` every
 * object of its resource in its namespace, as `kubectl get` without a name needs: a grant limited by
 * `resourceNames` shows those objects through their id, `/v1/objects` and the event log, not in aggregates.
 */
export function scopeAccess(s: AccessScope): ResourceAccess {
  return { verb: 'get', group: s.group, resource: s.resource, namespace: s.namespace };
}

/** Requesting a replay: `create` on `replays.ssa-audit.io` (cluster-wide). */
export const REPLAY_ACCESS: ResourceAccess = { verb: 'create', group: SERVICE_API_GROUP, resource: 'replays', namespace: '' };

/** Reading a replay's status: `get` on `replays.ssa-audit.io`. */
export const REPLAY_READ_ACCESS: ResourceAccess = { verb: 'get', group: SERVICE_API_GROUP, resource: 'replays', namespace: '' };

/**
 * Seeing every object's answers without the object-by-object filter (dashboards, platform teams), and
 * the dead letters (raw observations of any object): `list` on `objects.ssa-audit.io`, cluster-wide.
 */
export const CLUSTER_WIDE_ACCESS: ResourceAccess = { verb: 'list', group: SERVICE_API_GROUP, resource: 'objects', namespace: '' };
