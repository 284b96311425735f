import type { Operation } from '../../ssa-engine/src/index.js';
import type { ObjectOwnershipState } from './object-ownership.projection.js';
import { storableText } from './storable-text.js';

/** One identity a manager name writes as (`GET /v1/managers` lists them). */
export interface ManagerIdentity {
  readonly operation: Operation;
  readonly apiVersion: string;
  readonly subresource: string;
}

/** A key that tells identities apart. */
export const identityKey = (i: ManagerIdentity): string => `${i.operation}\u0000${i.apiVersion}\u0000${i.subresource}`;

/** One row of the per-manager index: what a manager owns in one object. */
export interface ManagerIndexRow {
  readonly manager: string;
  /** Owned paths (a path counts once, whatever the identities owning it). */
  readonly fieldCount: number;
  /** Its identities in the object, in the order they first own a field. */
  readonly identities: readonly ManagerIdentity[];
  /** Owned paths counted once per identity owning them (what `GET /v1/managers` sums as `fieldCount`). */
  readonly identityFieldCount: number;
}

/**
 * What the per-manager index of one object needs: the rows that are new or count differently
 * (written over the stored ones), and the managers that own nothing of it any more (their rows
 * deleted). The rows that stay the same are not written again.
 */
export interface ManagerIndexChange {
  readonly objectId: string;
  readonly cluster: string;
  readonly kind: string;
  readonly namespace: string | null;
  readonly upserts: readonly ManagerIndexRow[];
  readonly removed: readonly string[];
}

/** What each manager name owns in the object: paths, identities, paths per identity (a manager `storableText` refuses left out). */
export function managerIndexRows(s: ObjectOwnershipState): ManagerIndexRow[] {
  const rows = new Map<string, { fieldCount: number; identities: Map<string, ManagerIdentity>; identityFieldCount: number }>();
  for (const f of s.fields) {
    const seen = new Set<string>();
    for (const o of f.owners) {
      // A manager the index cannot name (`storableText`) is left out of it.
      if (!storableText(o.manager) || !storableText(o.operation) || !storableText(o.subresource) || !storableText(o.apiVersion)) continue;
      let row = rows.get(o.manager);
      if (!row) rows.set(o.manager, (row = { fieldCount: 0, identities: new Map(), identityFieldCount: 0 }));
      if (!seen.has(o.manager)) {
        seen.add(o.manager);
        row.fieldCount++;
      }
      row.identityFieldCount++;
      const key = identityKey(o);
      if (!row.identities.has(key)) row.identities.set(key, { operation: o.operation, apiVersion: o.apiVersion, subresource: o.subresource });
    }
  }
  return [...rows].map(([manager, r]) => ({ manager, fieldCount: r.fieldCount, identities: [...r.identities.values()], identityFieldCount: r.identityFieldCount }));
}

const sameRow = (a: ManagerIndexRow, b: ManagerIndexRow | undefined): boolean =>
  b !== undefined && a.fieldCount === b.fieldCount && a.identityFieldCount === b.identityFieldCount && JSON.stringify(a.identities) === JSON.stringify(b.identities);

/**
 * What the per-manager index needs after an object went from `before` to `after`: nothing when its
 * owned fields are the same objects or give the same rows (most writes), else the rows that differ
 * and the managers gone.
 */
export function managerIndexChange(before: ObjectOwnershipState | undefined, after: ObjectOwnershipState): ManagerIndexChange | null {
  if (before !== undefined && before.fields === after.fields) return null;
  return rowsChange(after, before === undefined ? [] : managerIndexRows(before), managerIndexRows(after));
}

/** The change from the rows `stored` to `rows` (of the object `after`); `null` when none. */
function rowsChange(after: ObjectOwnershipState, stored: readonly ManagerIndexRow[], rows: readonly ManagerIndexRow[]): ManagerIndexChange | null {
  const byManager = new Map(stored.map((r) => [r.manager, r]));
  const upserts = rows.filter((r) => !sameRow(r, byManager.get(r.manager)));
  const kept = new Set(rows.map((r) => r.manager));
  const removed = [...byManager.keys()].filter((m) => !kept.has(m));
  if (upserts.length === 0 && removed.length === 0) return null;
  return { objectId: after.objectId, cluster: after.cluster, kind: after.kind, namespace: after.namespace, upserts, removed };
}

/** A change of an object's index rows at the event `seq` (observed `at`): the rows in force from then on (what `GET /v1/managers?at=` sums). */
export interface ManagerIndexVersion extends ManagerIndexChange {
  readonly seq: string;
  readonly at: string;
}

/**
 * Follows the index rows of a batch's objects event by event: a version wherever they change
 * (`managerIndexChange` from one event to the next). Each object's rows are computed once per
 * event that changes its owned fields.
 */
export class ManagerIndexTimeline {
  /** Per object: its rows before the batch, and after the last event stepped, with that state. */
  private readonly objects = new Map<string, { readonly first: readonly ManagerIndexRow[]; rows: readonly ManagerIndexRow[]; state: ObjectOwnershipState }>();
  readonly versions: ManagerIndexVersion[] = [];

  /** One event took the object from `before` (`undefined`: its first) to `after`. */
  step(before: ObjectOwnershipState | undefined, after: ObjectOwnershipState): void {
    if (before !== undefined && before.fields === after.fields) return;
    let o = this.objects.get(after.objectId);
    if (!o) {
      const first = before === undefined ? [] : managerIndexRows(before);
      this.objects.set(after.objectId, (o = { first, rows: first, state: after }));
    }
    const rows = managerIndexRows(after);
    const change = rowsChange(after, o.rows, rows);
    o.rows = rows;
    o.state = after;
    if (change) this.versions.push({ ...change, seq: after.lastSeq, at: after.lastAt });
  }

  /** What the stored rows need after the batch: `managerIndexChange` from each object's state before it to its last. */
  changes(): ManagerIndexChange[] {
    return [...this.objects.values()].map((o) => rowsChange(o.state, o.first, o.rows)).filter((c): c is ManagerIndexChange => c !== null);
  }
}
