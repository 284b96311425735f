import type { DataSource, QueryRunner } from 'typeorm';
import { foldsAtAppend, ProjectEventsUseCase, type ObservedEvent, type OwnershipProjectionStore, type SchemaResolver } from '../../../audit/src/index.js';
import { StoredSchemaCatalog, type SchemaCatalogSource } from '../schemas/stored-schema-catalog.js';
import { PostgresOwnershipProjectionStore, stampOf } from './ownership-projection.store.js';

/** How long an append folds with the schema catalog it read (the log walk projects again what a changed schema makes stale). */
const CATALOG_MAX_AGE_MS = 1000;

const SAVEPOINT = 'append_time_projection';

/** What an append's projection did. */
export interface AppendTimeProjectionResult {
  /** Objects whose new events were folded in the append's transaction. */
  readonly folded: number;
  /** Objects left to the log walk (their state was behind, or folded with another schema). */
  readonly left: number;
  /** Why nothing was folded, when folding failed (the log walk folds them instead). */
  readonly error: unknown;
}

/**
 * Folds an append's new events into the active generation's projections in the append's own
 * transaction, which holds the objects' rows: the states are written with the events, and the log
 * walk later passes over them without reading a body. Which objects may be folded is the audit
 * lib's `foldsAtAppend`; the fold is the projector's use case. Runs under a savepoint: a failure
 * leaves the events to the log walk and never fails the append.
 */
export class AppendTimeProjection {
  private readonly schemas: SchemaCatalogSource;

  constructor(
    private readonly dataSource: DataSource,
    schemas?: SchemaCatalogSource,
  ) {
    this.schemas = schemas ?? new StoredSchemaCatalog(dataSource, { maxAgeMs: CATALOG_MAX_AGE_MS });
  }

  /** The schemas to fold with: read before the append's transaction opens (it may hold the only connection). */
  async resolver(): Promise<SchemaResolver> {
    return (await this.schemas.current()).resolve;
  }

  /**
   * `storedEvents`: every event the append stored, in seq order (rebuilt under the savepoint: a
   * failure there fails only the fold); `previousSeqs`: for each of their objects, its newest stored
   * event before the append (`null`: it had none); `resolve`: from {@link resolver}.
   */
  async project(
    q: QueryRunner,
    resolve: SchemaResolver,
    storedEvents: () => readonly ObservedEvent[],
    previousSeqs: ReadonlyMap<string, string | null>,
  ): Promise<AppendTimeProjectionResult> {
    if (previousSeqs.size === 0) return { folded: 0, left: 0, error: null };
    await q.query(`SAVEPOINT ${SAVEPOINT}`);
    try {
      const events = storedEvents();
      // KEY SHARE: a generation swap (FOR UPDATE of this row) waits for the appends folding into the old one.
      const [row]: { active: number }[] = await q.query(`SELECT active FROM projection_generations WHERE projection = 'ownership' FOR KEY SHARE`);
      if (!row) throw new Error('projection_generations has no ownership row (migrations not run?)');
      const store = new PostgresOwnershipProjectionStore(this.dataSource, row.active, null, false, q);
      const ids = [...previousSeqs.keys()];
      const states = await store.load(ids);
      const foldable = new Set(ids.filter((id) => {
        const s = states.get(id);
        return foldsAtAppend(previousSeqs.get(id) ?? null, s && stampOf(s), resolve);
      }));
      if (foldable.size > 0) {
        const onto: OwnershipProjectionStore = {
          load: async () => new Map([...states].filter(([id]) => foldable.has(id))),
          save: (batch) => store.save(batch),
        };
        await new ProjectEventsUseCase(onto, resolve).execute({ events: events.filter((e) => foldable.has(e.objectId)) });
      }
      await q.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
      return { folded: foldable.size, left: ids.length - foldable.size, error: null };
    } catch (error) {
      await q.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
      return { folded: 0, left: previousSeqs.size, error };
    }
  }
}
