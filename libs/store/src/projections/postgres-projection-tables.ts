import type { DataSource } from 'typeorm';
import type { ObjectRewrite, OwnershipProjectionStore, ProjectedSchemaGroup, ProjectedStamp, ProjectionTables, RewritePages } from '../../../audit/src/index.js';
import { inTransaction } from '../database/transaction.util.js';
import { CheckpointRepository } from '../events/checkpoint.repository.js';
import type { EventPosition } from '../events/event-position.js';
import { EventReader } from '../events/event-reader.js';
import { ObservedEventLoader } from '../events/observed-event.loader.js';
import { deleteProjectionRows, ownershipCheckpoint, PostgresOwnershipProjectionStore } from './ownership-projection.store.js';
import { ProjectionGenerationsRepository } from './projection-generations.repository.js';
import { recordedDigestSql } from './schema-choices.js';

/** The audit lib's {@link ProjectionTables} port on Postgres: generations, checkpoints, states and one-object rewrites. */
export class PostgresProjectionTables implements ProjectionTables {
  private readonly generations: ProjectionGenerationsRepository;
  private readonly checkpoints: CheckpointRepository;

  constructor(private readonly dataSource: DataSource) {
    this.generations = new ProjectionGenerationsRepository(dataSource);
    this.checkpoints = new CheckpointRepository(dataSource);
  }

  activeGeneration(): Promise<number> {
    return this.generations.active();
  }

  beginRebuild(): Promise<number> {
    return this.generations.beginRebuild();
  }

  swapIn(generation: number): Promise<void> {
    return this.generations.swapIn(generation);
  }

  checkpoint(generation: number): Promise<EventPosition> {
    return this.checkpoints.get(ownershipCheckpoint(generation));
  }

  pageStore(generation: number, position: EventPosition): OwnershipProjectionStore {
    return new PostgresOwnershipProjectionStore(this.dataSource, generation, position);
  }

  /**
   * In one transaction (queries see the old or the new rows, never a mix), holding the objects' rows
   * (in id order, as appends lock them: no deadlock): an append, which folds the events it stores,
   * waits, then finds the new states. Every projection row of the objects that have events is deleted
   * first (one whose every event retention dropped keeps its rows, as before: nothing rebuilds them); their
   * events are read after the rows are held (every event an append committed before is among them),
   * a page at a time on the same connection, and each page's store loads the states the pages
   * before saved (read back in the transaction).
   */
  rewriteObjects(generation: number, objectIds: readonly string[], pages: RewritePages, fold: (rewrite: ObjectRewrite) => Promise<void>): Promise<number> {
    if (objectIds.length === 0) return Promise.resolve(0);
    return inTransaction(this.dataSource, async (q) => {
      const held: { id: string; has_events: boolean }[] = await q.query(
        `SELECT o.id::text AS id, EXISTS (SELECT 1 FROM events e WHERE e.object_id = o.id) AS has_events
         FROM objects o WHERE o.id = ANY ($1::bigint[]) ORDER BY o.id FOR UPDATE`,
        [objectIds],
      );
      // An object none of whose events is kept any more (retention dropped them) keeps its rows: there is nothing to rebuild them from.
      await deleteProjectionRows(q, generation, held.filter((o) => o.has_events).map((o) => o.id));
      const reader = new EventReader(q);
      const loader = new ObservedEventLoader(q);
      let read = 0;
      for (let after: { objectId: string; seq: string } | null = null; ; ) {
        const page = await reader.objectsHistoryPage(objectIds, after, pages.events, pages.bodyBytes);
        if (page.events.length === 0) return read;
        await fold({ events: await loader.load(page.events), store: new PostgresOwnershipProjectionStore(this.dataSource, generation, null, q) });
        read += page.events.length;
        if (page.last) return read;
        const last = page.events[page.events.length - 1]!;
        after = { objectId: last.objectId, seq: last.seq };
      }
    });
  }

  /** The audit lib's `stampOf` of each stored state, read without decoding the states. */
  async stamps(generation: number, objectIds: readonly string[]): Promise<Map<string, ProjectedStamp>> {
    if (objectIds.length === 0) return new Map();
    const rows: { object_id: string; last_seq: string; cluster: string; api_group: string; api_version: string; kind: string; digest: string | null }[] =
      await this.dataSource.query(
        `SELECT s.object_id, s.last_seq::text AS last_seq, s.cluster, s.api_group, s.api_version, s.kind, ${recordedDigestSql('s')} AS digest
         FROM ownership_states s WHERE s.generation = $1 AND s.object_id = ANY($2::text[])`,
        [generation, objectIds],
      );
    return new Map(rows.map((r) => [r.object_id, { lastSeq: r.last_seq, cluster: r.cluster, group: r.api_group, version: r.api_version, kind: r.kind, digest: r.digest }]));
  }

  schemaGroups(generation: number): Promise<ProjectedSchemaGroup[]> {
    return this.dataSource.query(
      `SELECT s.cluster, s.api_group AS "group", s.api_version AS version, s.kind, c.digest, count(*)::integer AS objects
       FROM ownership_states s LEFT JOIN schema_choices c ON c.id = s.schema_id WHERE s.generation = $1 GROUP BY 1, 2, 3, 4, 5`,
      [generation],
    );
  }

  async objectsOf(generation: number, g: ProjectedSchemaGroup): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT s.object_id AS id FROM ownership_states s
       WHERE s.generation = $1 AND s.cluster = $2 AND s.api_group = $3 AND s.api_version = $4 AND s.kind = $5
         AND ${recordedDigestSql('s')} IS NOT DISTINCT FROM $6
       ORDER BY s.object_id`,
      [generation, g.cluster, g.group, g.version, g.kind, g.digest],
    );
    return rows.map((r) => r.id);
  }

  async stateCount(generation: number): Promise<number> {
    const rows: { n: string }[] = await this.dataSource.query(`SELECT count(*) AS n FROM ownership_states WHERE generation = $1`, [generation]);
    return Number(rows[0]?.n ?? 0);
  }
}
