import { foldsAtAppend, stampOf } from './append-time-projection.js';
import type { ObjectOwnershipState } from './object-ownership.projection.js';
import type { ObservedEvent } from './observed-event.types.js';
import { ProjectEventsUseCase, type OwnershipProjectionStore, type ProjectedBatch } from './project-events.use-case.js';
import type { SchemaCatalogSource } from './projection-log.port.js';
import type { SchemaResolver } from './schema-resolver.port.js';

/** How long an append folds with the schema catalog it read (the log walk projects again what a changed schema makes stale). */
const CATALOG_MAX_AGE_MS = 1000;

/** Port: the projection tables as seen from inside an append's transaction (which holds the objects' rows). */
export interface AppendTransactionTables {
  /** The active generation and the stored states of `objectIds` in it. */
  activeStates(objectIds: readonly string[]): Promise<{ readonly generation: number; readonly states: ReadonlyMap<string, ObjectOwnershipState> }>;
  /** Writes `batch` into `generation` (each state compare-and-set on the `lastSeq` it was folded from). */
  save(generation: number, batch: ProjectedBatch): Promise<void>;
}

/** What an append's projection did. */
export interface AppendTimeProjectionResult {
  /** Objects whose new events were folded in the append's transaction. */
  readonly folded: number;
  /** Objects left to the log walk (their state was behind, or folded with another schema; all of them when folding failed). */
  readonly left: number;
  /** Why nothing was folded, when folding failed (the batch was stored again without folding). */
  readonly error: unknown;
}

/** Folding at append failed: the append runs again without folding, and the log walk folds the events. */
export class FoldAtAppendError extends Error {
  constructor(override readonly cause: unknown) {
    super(`folding at append failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'FoldAtAppendError';
  }
}

/**
 * The ingest's second use case: folds an append's new events into the active generation's
 * projections in the append's own transaction, so the log walk later passes over them without
 * reading a body. Which objects may be folded is {@link foldsAtAppend}; the fold is the projector's
 * {@link ProjectEventsUseCase}. A failure is thrown as {@link FoldAtAppendError}: the appender then
 * stores the batch without folding, so a fold never keeps an event out of the log.
 */
export class AppendTimeProjection {
  constructor(
    /** The worker's catalog, shared with its projector (each document is converted once per process). */
    private readonly schemas: SchemaCatalogSource,
  ) {}

  /** The schemas to fold with: read before the append's transaction opens (it may hold the only connection). */
  async resolver(): Promise<SchemaResolver> {
    return (await this.schemas.current(CATALOG_MAX_AGE_MS)).resolve;
  }

  /**
   * `storedEvents`: every event the append stored (in any order: the fold sorts them); `previousSeqs`: for each of their
   * objects, its newest stored event before the append (`null`: it had none); `resolve`: from
   * {@link resolver}.
   */
  async project(
    tables: AppendTransactionTables,
    resolve: SchemaResolver,
    storedEvents: () => readonly ObservedEvent[],
    previousSeqs: ReadonlyMap<string, string | null>,
  ): Promise<AppendTimeProjectionResult> {
    if (previousSeqs.size === 0) return { folded: 0, left: 0, error: null };
    try {
      const ids = [...previousSeqs.keys()];
      const { generation, states } = await tables.activeStates(ids);
      const foldable = new Set(ids.filter((id) => {
        const s = states.get(id);
        return foldsAtAppend(previousSeqs.get(id) ?? null, s && stampOf(s), resolve);
      }));
      if (foldable.size > 0) {
        const onto: OwnershipProjectionStore = {
          load: async () => new Map([...states].filter(([id]) => foldable.has(id))),
          save: (batch) => tables.save(generation, batch),
        };
        await new ProjectEventsUseCase(onto, resolve).execute({ events: storedEvents().filter((e) => foldable.has(e.objectId)) });
      }
      return { folded: foldable.size, left: ids.length - foldable.size, error: null };
    } catch (error) {
      throw new FoldAtAppendError(error);
    }
  }
}
