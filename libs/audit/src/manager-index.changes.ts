import type { ObjectOwnershipState } from './object-ownership.projection.js';

/** One row of the per-manager index: how many owned paths a manager has in one object. */
export interface ManagerIndexRow {
  readonly manager: string;
  readonly fieldCount: number;
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

/** Owned paths per manager name (a name counts once per path, whatever its identities). */
export function managerIndexRows(s: ObjectOwnershipState): ManagerIndexRow[] {
  const counts = new Map<string, number>();
  for (const f of s.fields) for (const m of new Set(f.owners.map((o) => o.manager))) counts.set(m, (counts.get(m) ?? 0) + 1);
  return [...counts].map(([manager, fieldCount]) => ({ manager, fieldCount }));
}

/**
 * What the per-manager index needs after an object went from `before` to `after`: nothing when its
 * owned fields are the same objects or count the same per manager (most writes), else the rows
 * that differ and the managers gone.
 */
export function managerIndexChange(before: ObjectOwnershipState | undefined, after: ObjectOwnershipState): ManagerIndexChange | null {
  if (before !== undefined && before.fields === after.fields) return null;
  const rows = managerIndexRows(after);
  const stored = new Map((before === undefined ? [] : managerIndexRows(before)).map((r) => [r.manager, r.fieldCount]));
  const upserts = rows.filter((r) => stored.get(r.manager) !== r.fieldCount);
  const kept = new Set(rows.map((r) => r.manager));
  const removed = [...stored.keys()].filter((m) => !kept.has(m));
  if (upserts.length === 0 && removed.length === 0) return null;
  return { objectId: after.objectId, cluster: after.cluster, kind: after.kind, namespace: after.namespace, upserts, removed };
}
