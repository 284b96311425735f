import type { ManagerRef, Operation } from '../../ssa-engine/src/index.js';

/** Watch event types that carry an object (`BOOKMARK` never reaches the event log). */
export type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** How the observation was made: a live watch, a relist after `410 Gone`, or a gap reconstruction. */
export type EventSource = 'watch' | 'relist' | 'gap-fill';

/**
 * A global event sequence number. Postgres `bigint` arrives as a string or a bigint; a number is
 * accepted while it is a safe integer. Every output of this library carries it as a decimal string.
 */
export type Seq = bigint | number | string;

/**
 * One stored event of one object, as the store adapter hands it to the projections (stream id
 * `cluster:uid`). `object` is the full body with `metadata.managedFields` (Secret values may be
 * replaced by hashes: only paths and equality matter here).
 */
export interface ObservedEvent {
  readonly seq: Seq;
  readonly cluster: string;
  readonly uid: string;
  /** The stream / object id used by the API (`cluster:uid` or the store's surrogate id). */
  readonly objectId: string;
  /** API group, `''` for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly namespace?: string | null;
  readonly name: string;
  /** Opaque; never an ordering key. */
  readonly resourceVersion: string;
  /** RFC 3339 time of the observation. */
  readonly observedAt: string;
  readonly watchType: WatchType;
  readonly source: EventSource;
  readonly object: unknown;
}

/** An event without its object: what the log says of it before its body is read. */
export type EventFacts = Omit<ObservedEvent, 'object'>;

/** When something started: the event sequence (decimal string) and its observation time. */
export interface Since {
  readonly seq: string;
  readonly at: string;
}

/** An owner of a field with the moment it started owning it. */
export interface FieldOwner extends ManagerRef {
  readonly since: Since;
  /**
   * True when the ownership already existed at the object's first observation: it may be older
   * than `since` (history before tracking is unknown).
   */
  readonly sinceFirstObservation: boolean;
}

export type { ManagerRef, Operation };
