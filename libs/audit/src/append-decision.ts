import type { WatchType } from './observed-event.types.js';

/**
 * What to store for an observation: decided here, executed by the store (which hashes, diffs and
 * writes). An object's tip is what the store keeps of its newest stored event.
 */
export interface ObjectTip {
  /** Hash of the managedFields list of the newest stored event; `null` before the first. */
  readonly fieldsHash: Uint8Array | null;
  /** Hash of the tracked values of the newest stored event; `null` before the first. */
  readonly valuesHash: Uint8Array | null;
  /** The object's last full body (its snapshot) is known: a patch is made against it. */
  readonly hasSnapshot: boolean;
  /** Events stored as patches since the snapshot. */
  readonly eventsSinceSnapshot: number;
}

/** An observation as far as the decision needs it. */
export interface ObservationDigest {
  readonly type: WatchType;
  readonly fieldsHash: Uint8Array;
  readonly valuesHash: Uint8Array;
}

export type AppendDecision =
  /** Same managedFields and tracked values as the tip: a change of nothing the audit answers (time-only). Counted, not stored. */
  | { readonly store: false }
  /** A new event; its body whole (`full`: the first, or every `snapshotEvery`-th, a new snapshot) or as a patch against the snapshot. */
  | { readonly store: true; readonly body: 'full' | 'patch' };

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The decision for one observation given its object's tip. A deletion is always stored; a body
 * is whole when there is no snapshot to patch or when the patches since the snapshot would reach
 * `snapshotEvery` (bounding how far a patch drifts from its snapshot, and what a chain read scans).
 */
export function decideAppend(tip: ObjectTip, o: ObservationDigest, snapshotEvery: number): AppendDecision {
  const unchanged =
    o.type !== 'DELETED' && tip.fieldsHash !== null && tip.valuesHash !== null && sameBytes(tip.fieldsHash, o.fieldsHash) && sameBytes(tip.valuesHash, o.valuesHash);
  if (unchanged) return { store: false };
  return { store: true, body: !tip.hasSnapshot || tip.eventsSinceSnapshot + 1 >= snapshotEvery ? 'full' : 'patch' };
}

/** The tip after storing an event under `decision` (the store keeps it with the object). */
export function nextTip(tip: ObjectTip, o: ObservationDigest, body: 'full' | 'patch'): ObjectTip {
  return { fieldsHash: o.fieldsHash, valuesHash: o.valuesHash, hasSnapshot: true, eventsSinceSnapshot: body === 'full' ? 0 : tip.eventsSinceSnapshot + 1 };
}
