import { compareStrings } from '../../ssa-engine/src/index.js';
import type { ObjectOwnershipState, OwnedField } from './object-ownership.projection.js';

/** The identifying columns of an object. */
export interface ObjectRef {
  readonly objectId: string;
  readonly cluster: string;
  readonly uid: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly namespace: string | null;
  readonly name: string;
}

/** An object's identity with its owned fields: what the filters and a manager's fields read of a state (a state, or a version's owners). */
export type ObjectOwnedFields = ObjectRef & Pick<ObjectOwnershipState, 'deleted' | 'fields'>;

/** An object's place in a list of objects by identity (a manager's fields): cluster, group, kind, namespace ('' for none), name, id. */
export type ObjectListKey = readonly [cluster: string, group: string, kind: string, namespace: string, name: string, objectId: string];

export function objectListKey(o: ObjectRef): ObjectListKey {
  return [o.cluster, o.group, o.kind, o.namespace ?? '', o.name, o.objectId];
}

/** The order of {@link ObjectListKey}s: each part by code points (`compareStrings`; `COLLATE "C"` in SQL). */
export function compareObjectListKeys(a: ObjectListKey, b: ObjectListKey): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareStrings(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

/** The identifying columns of a state. */
export function objectRef(s: ObjectRef): ObjectRef {
  return { objectId: s.objectId, cluster: s.cluster, uid: s.uid, group: s.group, version: s.version, kind: s.kind, namespace: s.namespace, name: s.name };
}

/** `GET /v1/objects` item (issue 7's shape: `id` is the object id). */
export interface ObjectListItem extends Omit<ObjectRef, 'objectId'> {
  readonly id: string;
  readonly deleted: boolean;
  readonly lastSeq: string;
  readonly lastAt: string;
}

/** Filters of `GET /v1/objects`; `manager` keeps objects in which that manager owns something. */
export interface ObjectFilter {
  readonly cluster?: string;
  readonly group?: string;
  readonly version?: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly manager?: string;
}

/** The list item of one state. */
export function objectListItem(s: ObjectOwnershipState): ObjectListItem {
  const { objectId, ...rest } = objectRef(s);
  return {
    id: objectId,
    ...rest,
    deleted: s.deleted,
    lastSeq: s.lastSeq,
    lastAt: s.lastAt,
  };
}

/** True when `manager` owns at least one of `fields`: what `manager=` of `GET /v1/objects` keeps, now or as of `at=` (a deleted object owns none). */
export function managerOwnsAField(fields: readonly OwnedField[], manager: string): boolean {
  return fields.some((f) => f.owners.some((o) => o.manager === manager));
}

/** True when `s` passes every given filter. */
export function matchesObjectFilter(s: ObjectOwnedFields, f: ObjectFilter): boolean {
  return (
    (f.cluster === undefined || s.cluster === f.cluster) &&
    (f.group === undefined || s.group === f.group) &&
    (f.version === undefined || s.version === f.version) &&
    (f.kind === undefined || s.kind === f.kind) &&
    (f.namespace === undefined || (s.namespace ?? '') === f.namespace) &&
    (f.name === undefined || s.name === f.name) &&
    (f.manager === undefined || managerOwnsAField(s.fields, f.manager))
  );
}

/**
 * `GET /v1/objects?cluster&group&version&kind&namespace&name&manager`: the matching objects, sorted
 * by cluster, group, kind, namespace, name, id (pagination is the store's: cursor on that order).
 */
export function listObjects(states: Iterable<ObjectOwnershipState>, filter: ObjectFilter = {}): ObjectListItem[] {
  const out: ObjectListItem[] = [];
  for (const s of states) if (matchesObjectFilter(s, filter)) out.push(objectListItem(s));
  return out.sort(
    (a, b) =>
      compareStrings(a.cluster, b.cluster) ||
      compareStrings(a.group, b.group) ||
      compareStrings(a.kind, b.kind) ||
      compareStrings(a.namespace ?? '', b.namespace ?? '') ||
      compareStrings(a.name, b.name) ||
      compareStrings(a.id, b.id),
  );
}
