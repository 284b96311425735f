import type { EventSource } from './observed-event.types.js';
import { gapNotes, ref, type FieldTransition, type ObjectOwnershipState, type OwnershipEvolution } from './object-ownership.projection.js';
import type { OwnershipVersion } from './ownership-version.js';

/**
 * Transitions are changes. An object's first observation says only what it owned then: the fold
 * reports it as an `acquired` transition per (owned path, owner), but the projection stores it once,
 * as the object's first ownership version (the baseline), and answers those transitions from it.
 */

/**
 * The transitions of one folded event the projection stores: none for the baseline (`before`
 * undefined), every one otherwise (one whose path or actor holds U+0000 too: the store keeps those
 * texts exactly where its text columns cannot).
 */
export function transitionsToStore(before: ObjectOwnershipState | undefined, evolution: OwnershipEvolution): readonly FieldTransition[] {
  return before === undefined ? [] : evolution.transitions;
}

/** The first event of an object, as far as its baseline transitions need it. */
export interface BaselineEvent {
  readonly seq: string;
  /** As the transitions are answered (an ISO time). */
  readonly at: string;
  readonly source: EventSource;
}

/**
 * The `acquired` transitions of an object's first observation, rebuilt from its first ownership
 * version: what folding that event gives (`evolveObjectOwnership` from no state), in the same order
 * (owned paths in canonical order, each path's owners in managedFields order). With `fieldsV1Path`,
 * only that path's.
 */
export function baselineTransitions(
  objectId: string,
  version: Pick<OwnershipVersion, 'fields'>,
  first: BaselineEvent,
  fieldsV1Path?: string,
): FieldTransition[] {
  const out: FieldTransition[] = [];
  const notes = gapNotes(first.source, []);
  for (const f of version.fields) {
    if (fieldsV1Path !== undefined && f.fieldsV1Path !== fieldsV1Path) continue;
    const owners = f.owners.map(ref);
    for (const o of owners) {
      out.push({
        seq: first.seq,
        at: first.at,
        objectId,
        type: 'acquired',
        path: f.path,
        fieldsV1Path: f.fieldsV1Path,
        manager: o.manager,
        operation: o.operation,
        subresource: o.subresource,
        apiVersion: o.apiVersion,
        from: [],
        owners,
        valueChanged: true,
        reconstructed: first.source !== 'watch',
        notes: [...notes],
      });
    }
  }
  return out;
}
