import type { ObjectOwnershipState, OwnedField } from './object-ownership.projection.js';

/**
 * What an `at=` read needs of an object's state, from one event on until the object's next
 * version: its owned fields (with since when) and whether it is deleted. The projector
 * stores one whenever these change, so the state as of any sequence is the version in force then
 * plus the body of the object's latest event up to that sequence — no fold of the whole history.
 */
export interface OwnershipVersion {
  readonly objectId: string;
  /** The event from which this version holds. */
  readonly seq: string;
  readonly deleted: boolean;
  readonly fields: readonly OwnedField[];
  /**
   * The latest event up to here was skipped (unreadable managedFields): the state's object is an
   * older event's body, so a reader must fold the events instead.
   */
  readonly foldRequired: boolean;
}

/** The parts of a state an `at=` read is answered from (identity, its latest event, body and owned fields). */
export type OwnershipSnapshot = Pick<
  ObjectOwnershipState,
  'objectId' | 'cluster' | 'uid' | 'group' | 'version' | 'apiVersion' | 'kind' | 'namespace' | 'name' | 'deleted' | 'lastSeq' | 'lastAt' | 'object' | 'fields' | 'schema'
>;

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** True when the state's latest event was skipped by the engine (its body is not the state's object). */
const lastEventSkipped = (s: ObjectOwnershipState): boolean => s.lastError !== null && s.lastError.seq === s.lastSeq;

/**
 * The version an event starts, given the states before and after it; `null` when nothing an `at=`
 * read uses changed (the same event redelivered, or a write that moved no owner). Relies on the
 * fold keeping unchanged owned fields as the same objects.
 */
export function ownershipVersionOf(before: ObjectOwnershipState | undefined, after: ObjectOwnershipState): OwnershipVersion | null {
  if (before === after) return null;
  const foldRequired = lastEventSkipped(after);
  if (
    before !== undefined &&
    before.deleted === after.deleted &&
    lastEventSkipped(before) === foldRequired &&
    sameItems(before.fields, after.fields)
  ) {
    return null;
  }
  return { objectId: after.objectId, seq: after.lastSeq, deleted: after.deleted, fields: after.fields, foldRequired };
}

/** The state as of a sequence, from the version in force then and the object's latest event up to it. */
export function snapshotFromVersion(
  identity: Omit<OwnershipSnapshot, 'deleted' | 'lastSeq' | 'lastAt' | 'object' | 'fields'>,
  version: Pick<OwnershipVersion, 'deleted' | 'fields'>,
  latest: { readonly seq: string; readonly at: string; readonly object: unknown },
): OwnershipSnapshot {
  return {
    ...identity,
    deleted: version.deleted,
    lastSeq: latest.seq,
    lastAt: latest.at,
    // A deleted object has no owners and no value: its body is never read.
    object: version.deleted ? null : latest.object,
    fields: version.fields,
  };
}

/** The snapshot of a whole state (what an `at=` read from versions gives for the same moment). */
export function ownershipSnapshotOf(s: ObjectOwnershipState): OwnershipSnapshot {
  return {
    objectId: s.objectId, cluster: s.cluster, uid: s.uid, group: s.group, version: s.version, apiVersion: s.apiVersion, kind: s.kind,
    namespace: s.namespace, name: s.name, deleted: s.deleted, lastSeq: s.lastSeq, lastAt: s.lastAt, object: s.deleted ? null : s.object, fields: s.fields,
    schema: s.schema,
  };
}
