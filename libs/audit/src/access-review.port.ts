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

/** A tracked object as access checks see it. */
export interface ObjectAccessIdentity {
  readonly cluster: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace: string;
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

/** Requesting a replay: `create` on `replays.ssa-audit.io` (cluster-wide). */
export const REPLAY_ACCESS: ResourceAccess = { verb: 'create', group: SERVICE_API_GROUP, resource: 'replays', namespace: '' };

/** Reading a replay's status: `get` on `replays.ssa-audit.io`. */
export const REPLAY_READ_ACCESS: ResourceAccess = { verb: 'get', group: SERVICE_API_GROUP, resource: 'replays', namespace: '' };

/**
 * Cluster-wide answers not yet filtered object by object (managers, findings, the event log and its
 * stream, simulate): `list` on `objects.ssa-audit.io`, cluster-wide, granted to whom may see them all.
 */
export const CLUSTER_WIDE_ACCESS: ResourceAccess = { verb: 'list', group: SERVICE_API_GROUP, resource: 'objects', namespace: '' };
