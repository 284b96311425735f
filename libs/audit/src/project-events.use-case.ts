import type { ObservedEvent } from './observed-event.types.js';
import { evolveObjectOwnership, type FieldTransition, type ObjectOwnershipState } from './object-ownership.projection.js';
import { transitionsToStore } from './baseline-transitions.js';
import { ManagerIndexTimeline, type ManagerIndexChange, type ManagerIndexVersion } from './manager-index.changes.js';
import { FindingsTimeline, type FindingsChange, type FindingsVersion } from './findings.changes.js';
import { ownershipVersionOf, type OwnershipVersion } from './ownership-version.js';
import { defaultSchemaResolver, type SchemaResolver } from './schema-resolver.port.js';
import { compareSeq, seqString, sortEvents } from './seq.util.js';
import { keepsTimeOrder } from './time-order.js';

/** What one projection batch writes, in one transaction: states, new transitions and versions, the checkpoint. */
export interface ProjectedBatch {
  /** The new state of every object the batch touched. */
  readonly states: readonly ObjectOwnershipState[];
  /** New transitions, in event order (an object's first observation has none: its baseline is its first version). */
  readonly transitions: readonly FieldTransition[];
  /** New ownership versions (what `at=` reads), in event order. */
  readonly versions: readonly OwnershipVersion[];
  /** The per-manager index rows of the objects whose counts changed (most writes change none). */
  readonly managerIndex: readonly ManagerIndexChange[];
  /** Every change of an object's index rows, in event order (what `at=` reads). */
  readonly managerIndexVersions: readonly ManagerIndexVersion[];
  /** The stored findings of the objects whose findings changed (most writes change none). */
  readonly findings: readonly FindingsChange[];
  /** Every change of an object's findings, in event order (what `at=` reads). */
  readonly findingsVersions: readonly FindingsVersion[];
  /** The highest sequence of the batch: every event up to it is fully applied once this batch is saved. */
  readonly checkpoint: string | null;
  /**
   * For every state in `states`, the `lastSeq` of the stored state it was folded from (`null`: none
   * was stored). A store that others write too saves a state only over that one (compare and set).
   */
  readonly foldedFrom: ReadonlyMap<string, string | null>;
  /**
   * The objects one of whose events in the batch was observed earlier than the event before it
   * (`keepsTimeOrder`): the versions cannot answer `at=` a time for them any more.
   */
  readonly outOfTimeOrder: ReadonlySet<string>;
}

/**
 * Port: the projection tables (the store implements it on Postgres). `save` must write the whole
 * batch and the checkpoint atomically, so a checkpoint never passes an event not applied.
 */
export interface OwnershipProjectionStore {
  load(objectIds: readonly string[]): Promise<ReadonlyMap<string, ObjectOwnershipState>>;
  save(batch: ProjectedBatch): Promise<void>;
}

/** A batch of events read from the log by position (any objects, any order; duplicates allowed). */
export interface ProjectEventsCommand {
  readonly events: readonly ObservedEvent[];
}

/** What a batch did, for progress logs and metrics. */
export interface ProjectEventsResult {
  readonly objects: number;
  /** Events folded. */
  readonly applied: number;
  /** Events already projected (redelivery) or skipped as unreadable (see `state.lastError`). */
  readonly ignored: number;
  readonly transitions: number;
  readonly checkpoint: string | null;
}

/**
 * The project worker's use case: folds a batch of events into the ownership projections of their
 * objects and saves states, transitions and checkpoint together. Idempotent: a redelivered batch
 * changes nothing (events at or before an object's `lastSeq` are no-ops).
 */
export class ProjectEventsUseCase {
  constructor(
    private readonly store: OwnershipProjectionStore,
    private readonly schemaResolver: SchemaResolver = defaultSchemaResolver,
  ) {}

  async execute(cmd: ProjectEventsCommand): Promise<ProjectEventsResult> {
    const events = sortEvents(cmd.events);
    const ids = [...new Set(events.map((e) => e.objectId))];
    const loaded = await this.store.load(ids);
    const states = new Map<string, ObjectOwnershipState>();
    const transitions: FieldTransition[] = [];
    const versions: OwnershipVersion[] = [];
    const findings = new FindingsTimeline();
    const managers = new ManagerIndexTimeline();
    const outOfTimeOrder = new Set<string>();
    let applied = 0;
    let checkpoint: string | null = null;
    for (const e of events) {
      const before = states.get(e.objectId) ?? loaded.get(e.objectId);
      // An object's first event is stored as its baseline version: its transitions are never stored, so not built.
      const r = evolveObjectOwnership(before, e, this.schemaResolver, { baselineTransitions: false });
      states.set(e.objectId, r.state);
      transitions.push(...transitionsToStore(before, r));
      const version = ownershipVersionOf(before, r.state);
      if (version) versions.push(version);
      findings.step(before, r.state);
      managers.step(before, r.state);
      if (!keepsTimeOrder(before, r.state)) outOfTimeOrder.add(e.objectId);
      if (r.applied) applied++;
      const seq = seqString(e.seq);
      if (checkpoint === null || compareSeq(seq, checkpoint) > 0) checkpoint = seq;
    }
    const changed = [...states.values()].filter((s) => s !== loaded.get(s.objectId));
    const foldedFrom = new Map(changed.map((s) => [s.objectId, loaded.get(s.objectId)?.lastSeq ?? null]));
    await this.store.save({ states: changed, transitions, versions, managerIndex: managers.changes(), managerIndexVersions: managers.versions, findings: findings.changes(), findingsVersions: findings.versions, checkpoint, foldedFrom, outOfTimeOrder });
    return { objects: ids.length, applied, ignored: events.length - applied, transitions: transitions.length, checkpoint };
  }
}
