import { compareSeq } from './seq.util.js';
import { foldedWithChosenSchema, type FoldedKind } from './schema-staleness.js';
import type { SchemaResolver } from './schema-resolver.port.js';
import type { ObjectOwnershipState } from './object-ownership.projection.js';

/** What the decision needs of an object's stored projection state. */
export interface ProjectedStamp extends FoldedKind {
  /** The newest event folded into it. */
  readonly lastSeq: string;
}

/** A state's stamp: what a store reads back of it without decoding it. */
export const stampOf = (s: ObjectOwnershipState): ProjectedStamp => ({
  lastSeq: s.lastSeq, cluster: s.cluster, group: s.group, version: s.version, kind: s.kind, digest: s.schema.digest,
});

/**
 * Whether the events an append stores for an object may be folded in the same transaction, onto
 * its stored state: that state must hold every earlier event of the object (its `lastSeq` is the
 * object's newest stored event before this append, or the object has neither) and must have been
 * folded with the schema chosen now. Otherwise the log walk folds them, after projecting the object
 * again where the schema changed: a state is never folded from two schemas.
 */
export function foldsAtAppend(previousSeq: string | null, state: ProjectedStamp | undefined, resolver: SchemaResolver): boolean {
  if (state === undefined) return previousSeq === null;
  return previousSeq !== null && compareSeq(state.lastSeq, previousSeq) === 0 && foldedWithChosenSchema(state, resolver);
}
