import type { ObjectOwnershipState } from './object-ownership.projection.js';

/** One row of the per-manager index: how many owned paths a manager has in one object. */
export interface ManagerIndexRow {
  readonly manager: string;
  readonly fieldCount: number;
}

/** The index rows of one object to write, replacing its previous rows when it had any. */
export interface ManagerIndexChange {
  readonly objectId: string;
  readonly cluster: string;
  readonly kind: string;
  readonly namespace: string | null;
  /** Its rows as stored before (the store deletes them first). */
  readonly replaces: boolean;
  readonly rows: readonly ManagerIndexRow[];
}

/** Owned paths per manager name (a name counts once per path, whatever its identities). */
export function managerIndexRows(s: ObjectOwnershipState): ManagerIndexRow[] {
  const counts = new Map<string, number>();
  for (const f of s.fields) for (const m of new Set(f.owners.map((o) => o.manager))) counts.set(m, (counts.get(m) ?? 0) + 1);
  return [...counts].map(([manager, fieldCount]) => ({ manager, fieldCount }));
}

const sameRows = (a: readonly ManagerIndexRow[], b: readonly ManagerIndexRow[]): boolean =>
  a.length === b.length && a.every((r) => b.some((x) => x.manager === r.manager && x.fieldCount === r.fieldCount));

/**
 * What the per-manager index needs after an object went from `before` to `after`: nothing when its
 * owned fields are the same objects or count the same per manager (most writes), else its rows
 * (replacing the old ones if it had a state).
 */
export function managerIndexChange(before: ObjectOwnershipState | undefined, after: ObjectOwnershipState): ManagerIndexChange | null {
  if (before !== undefined && before.fields === after.fields) return null;
  const rows = managerIndexRows(after);
  if (before !== undefined && sameRows(managerIndexRows(before), rows)) return null;
  if (before === undefined && rows.length === 0) return null;
  return { objectId: after.objectId, cluster: after.cluster, kind: after.kind, namespace: after.namespace, replaces: before !== undefined, rows };
}
