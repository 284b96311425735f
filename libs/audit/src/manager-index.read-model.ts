import { compareStrings, type Operation } from '../../ssa-engine/src/index.js';
import type { Since } from './observed-event.types.js';
import type { ObjectOwnershipState } from './object-ownership.projection.js';
import { compareObjectListKeys, matchesObjectFilter, objectListKey, objectRef, type ObjectFilter, type ObjectOwnedFields, type ObjectRef } from './objects.read-model.js';
import { identityKey, managerIndexRows, type ManagerIdentity } from './manager-index.changes.js';

/** One field a manager owns. */
export interface ManagedFieldView {
  readonly path: string;
  readonly fieldsV1Path: string;
  readonly operation: Operation;
  readonly subresource: string;
  readonly apiVersion: string;
  readonly since: Since;
}

/** `GET /v1/managers/{name}/fields`: one object and the fields the manager owns in it. */
export interface ManagerObjectFields extends ObjectRef {
  readonly fields: readonly ManagedFieldView[];
}

/** `GET /v1/managers`: one manager across the tracked objects. */
export interface ManagerSummary {
  readonly manager: string;
  /** Its identities (a name may write as Apply and Update, through several subresources). */
  readonly identities: readonly ManagerIdentity[];
  readonly objectCount: number;
  readonly fieldCount: number;
  readonly objects: readonly ManagerObjectFields[];
}

/** Filters of `managerFields` (those of `GET /v1/objects`). */
export type ManagerFieldsFilter = Omit<ObjectFilter, 'manager'>;

const compareObjects = (a: ObjectRef, b: ObjectRef): number => compareObjectListKeys(objectListKey(a), objectListKey(b));

/** A manager's identities in the order `GET /v1/managers` lists them: operation, subresource, API version. */
export function sortedIdentities(ids: Iterable<ManagerIdentity>): ManagerIdentity[] {
  return [...ids].sort(
    (a, b) => compareStrings(a.operation, b.operation) || compareStrings(a.subresource, b.subresource) || compareStrings(a.apiVersion, b.apiVersion),
  );
}

/**
 * `GET /v1/managers`: every manager name owning something in the live (not deleted) states, with
 * its identities and, per object, the fields it owns. Sorted by name; objects by cluster, group,
 * kind, namespace, name.
 */
export function managerIndex(states: Iterable<ObjectOwnedFields>): ManagerSummary[] {
  const byManager = new Map<string, { ids: Map<string, ManagerSummary['identities'][number]>; objects: ManagerObjectFields[] }>();
  for (const s of states) {
    if (s.deleted) continue;
    const perManager = new Map<string, ManagedFieldView[]>();
    for (const f of s.fields) {
      for (const o of f.owners) {
        let m = byManager.get(o.manager);
        if (!m) byManager.set(o.manager, (m = { ids: new Map(), objects: [] }));
        const idKey = identityKey(o);
        if (!m.ids.has(idKey)) m.ids.set(idKey, { operation: o.operation, apiVersion: o.apiVersion, subresource: o.subresource });
        let list = perManager.get(o.manager);
        if (!list) perManager.set(o.manager, (list = []));
        list.push({ path: f.path, fieldsV1Path: f.fieldsV1Path, operation: o.operation, subresource: o.subresource, apiVersion: o.apiVersion, since: o.since });
      }
    }
    for (const [name, fields] of perManager) byManager.get(name)!.objects.push({ ...objectRef(s), fields });
  }
  return [...byManager.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([manager, m]) => {
      const objects = [...m.objects].sort(compareObjects);
      const identities = sortedIdentities(m.ids.values());
      return { manager, identities, objectCount: objects.length, fieldCount: objects.reduce((n, o) => n + o.fields.length, 0), objects };
    });
}

/**
 * `GET /v1/managers` without the objects, summed state by state from each one's index rows (what the
 * stored `manager_objects` rows give): only the sums are kept, so the states can be let go as they
 * come. `summaries()` equals `managerIndex` over the same states, objects left out.
 */
export class ManagerTotals {
  private readonly byManager = new Map<string, { ids: Map<string, ManagerIdentity>; objectCount: number; fieldCount: number }>();

  add(s: ObjectOwnershipState): void {
    if (s.deleted) return;
    for (const r of managerIndexRows(s)) {
      let m = this.byManager.get(r.manager);
      if (!m) this.byManager.set(r.manager, (m = { ids: new Map(), objectCount: 0, fieldCount: 0 }));
      m.objectCount++;
      m.fieldCount += r.identityFieldCount;
      for (const i of r.identities) if (!m.ids.has(identityKey(i))) m.ids.set(identityKey(i), i);
    }
  }

  /** Adds the sums of a manager over other objects (never the objects `add` adds). */
  merge(m: Omit<ManagerSummary, 'objects'>): void {
    let t = this.byManager.get(m.manager);
    if (!t) this.byManager.set(m.manager, (t = { ids: new Map(), objectCount: 0, fieldCount: 0 }));
    t.objectCount += m.objectCount;
    t.fieldCount += m.fieldCount;
    for (const i of m.identities) if (!t.ids.has(identityKey(i))) t.ids.set(identityKey(i), i);
  }

  summaries(): Omit<ManagerSummary, 'objects'>[] {
    return [...this.byManager.entries()]
      .sort(([a], [b]) => compareStrings(a, b))
      .map(([manager, m]) => ({ manager, identities: sortedIdentities(m.ids.values()), objectCount: m.objectCount, fieldCount: m.fieldCount }));
  }
}

/** `GET /v1/managers/{name}/fields?cluster&kind&namespace`: what `manager` owns, where. */
export function managerFields(states: Iterable<ObjectOwnedFields>, manager: string, filter: ManagerFieldsFilter = {}): ManagerObjectFields[] {
  const selected: ObjectOwnedFields[] = [];
  for (const s of states) if (matchesObjectFilter(s, { ...filter, manager })) selected.push(s);
  return [...(managerIndex(selected).find((m) => m.manager === manager)?.objects ?? [])];
}
