import type { ObservedEvent } from './observed-event.types.js';
import type { OwnershipProjectionStore } from './project-events.use-case.js';
import type { ProjectedSchemaGroup } from './schema-staleness.js';
import type { ProjectedStamp } from './append-time-projection.js';
import type { SchemaResolver } from './schema-resolver.port.js';

/**
 * A position in the global event log. Readers walk events ordered by (xid, seq) and only up to
 * the oldest transaction still open, so an event committed late by an older transaction is never
 * skipped (a plain `seq > n` reader would skip it). xid and seq are decimal strings (64-bit).
 */
export interface EventPosition {
  readonly xid: string;
  readonly seq: string;
}

/** What the projector needs of an event read from the log by position, before its body is read. */
export interface LoggedEvent {
  readonly seq: string;
  readonly xid: string;
  readonly objectId: string;
  readonly observedAt: Date;
}

/** Port: the event log, read by position (the store implements it on Postgres). */
export interface ProjectionLog<E extends LoggedEvent = LoggedEvent> {
  /**
   * Events after `position` in (xid, seq) order, never past the oldest transaction still open: at
   * most `limit`, and cut before the event whose body would take the bodies `load` rebuilds past
   * `maxBodyBytes` (the first event always comes, however large).
   */
  readAfter(position: EventPosition, limit: number, maxBodyBytes: number): Promise<E[]>;
  /** The events as the projection folds them (bodies and managedFields read). */
  load(events: readonly E[]): Promise<ObservedEvent[]>;
  /** Committed events after `position` (counted up to 1,000,000). */
  countAfter(position: EventPosition): Promise<number>;
  /** An estimate of how many events the log holds (for progress). */
  estimatedSize(): Promise<number>;
  /** The ids of a cluster's objects, in id order. */
  objectsOfCluster(cluster: string): Promise<string[]>;
  /** How many events the log holds of each of `objectIds` (an object with none is left out). */
  historyLengths(objectIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * The objects of `ranges` (by object id) with an event after `after` in log order whose seq lies
   * strictly between the range's `above` and `below`: an event the log gives after a higher seq of
   * the same object (its transaction started later but committed first).
   */
  objectsOutOfOrder(after: EventPosition, ranges: ReadonlyMap<string, SeqRange>): Promise<string[]>;
}

/** Sequences strictly between two bounds. */
export interface SeqRange {
  readonly above: string;
  readonly below: string;
}

/**
 * One page of the events of objects rewritten from scratch: the store holds the objects' rows
 * meanwhile (an append waits, then finds the new state), deletes every row of theirs first, and
 * reads their events a page at a time, each object's oldest first. Each page's `store` loads the
 * states the pages before saved (in the same transaction; none for an object not folded yet).
 */
export interface ObjectRewrite {
  readonly events: readonly ObservedEvent[];
  readonly store: OwnershipProjectionStore;
}

/**
 * How a rewrite of objects pages their events: at most `events` a page, cut before the event
 * whose body would take the bodies the page rebuilds past `bodyBytes` (the walk's estimate; a page's
 * first event always comes). An object's history is unbounded (a Lease renewed every 10 s has about
 * 8,600 events a day): read whole, it was rebuilt into memory at once.
 */
export interface RewritePages {
  readonly events: number;
  readonly bodyBytes: number;
}

/** Port: the generations of the projection tables, their checkpoints and stored states. */
export interface ProjectionTables {
  /** The generation queries read. */
  activeGeneration(): Promise<number>;
  /** A fresh generation to rebuild into; every generation but the active one is discarded first. */
  beginRebuild(): Promise<number>;
  /** Makes `generation` the active one, then drops every other. */
  swapIn(generation: number): Promise<void>;
  /** How far the log walk has folded into `generation`. */
  checkpoint(generation: number): Promise<EventPosition>;
  /** The store of one page of the walk: saving it also moves the checkpoint to `position`, atomically. */
  pageStore(generation: number, position: EventPosition): OwnershipProjectionStore;
  /**
   * Runs `fold` over each page of the events of `objectIds` (each object's oldest first), with their
   * rows held, replacing them (in one transaction: queries see the old rows or the new); returns how
   * many events it read. A page may end inside an object's history: the next one goes on from there.
   */
  rewriteObjects(generation: number, objectIds: readonly string[], pages: RewritePages, fold: (rewrite: ObjectRewrite) => Promise<void>): Promise<number>;
  /** The stored states' stamps, by object id (read without decoding the states). */
  stamps(generation: number, objectIds: readonly string[]): Promise<Map<string, ProjectedStamp>>;
  /** How many objects were folded with each schema, per kind. */
  schemaGroups(generation: number): Promise<ProjectedSchemaGroup[]>;
  /** The objects of a group, in id order. */
  objectsOf(generation: number, group: ProjectedSchemaGroup): Promise<string[]>;
  /** How many objects have a state in `generation`. */
  stateCount(generation: number): Promise<number>;
}

/**
 * Port: the schemas to fold with now, checked against the stored documents at most `maxAgeMs` ago
 * for this caller (the source's own default when left out).
 */
export interface SchemaCatalogSource {
  current(maxAgeMs?: number): Promise<{ readonly resolve: SchemaResolver }>;
}
