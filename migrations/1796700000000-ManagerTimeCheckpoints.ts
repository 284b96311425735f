import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /v1/managers?at=<time>` from checkpoints by time, as `ManagerCheckpoints` did it by sequence:
 * the list as of a time summed every manager-index version in force then (75 ms p50 at 20,000
 * Deployments, growing with the cluster and its history).
 *
 * - `manager_time_checkpoints` (generation, at): the sums of the manager index's versions in force at
 *   the time `at`, as `at=<time>` compares them (a version in force from its `at` until its
 *   `until_at`; a missing time is before every time), kept in `manager_time_checkpoint_totals` keyed
 *   as `manager_totals` keys them. Built by the worker (`ManagerCheckpoints`) every
 *   `CHECKPOINT_EVERY` version starts or ends by time. They hold over every object; a read leaves out the
 *   objects out of time order (it subtracts their versions in force then, and folds them).
 * - Two indexes of `manager_objects_versions`, by start time (`at`) and by end time (`until_at`, the
 *   closed rows only): the sums at any time T are the nearest checkpoint at or before T plus the
 *   versions that start after it up to T, minus those that end after it up to T.
 * - A checkpoint holds only while no version starts or ends at or before its time after it was built.
 *   Statement-level triggers on the versions delete, for each statement that changes a start or an end
 *   time (its old rows taken away and its new ones added, positions whose sums cancel out left out),
 *   the time checkpoints of its generation at or after the lowest such time: an event observed before
 *   a checkpoint but projected after it, a re-projection, a backfill, a generation dropped. They take
 *   the same advisory lock as `ManagerCheckpoints`' triggers (shared; the builder takes it
 *   exclusively). A TRUNCATE deletes every time checkpoint. A version that ends where or before it
 *   starts is never in force, so it counts nowhere.
 *
 * Up: the tables, the indexes (writes to the versions wait while they are built), the triggers. No
 * checkpoint is built here: reads are exact without one (they sum from the start).
 */
export class ManagerTimeCheckpoints1796700000000 implements MigrationInterface {
  name = 'ManagerTimeCheckpoints1796700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE manager_time_checkpoints (
        generation integer NOT NULL,
        at timestamptz NOT NULL,
        CONSTRAINT pk_manager_time_checkpoints PRIMARY KEY (generation, at)
      )`);
    await q.query(`
      CREATE TABLE manager_time_checkpoint_totals (
        generation integer NOT NULL,
        at timestamptz NOT NULL,
        cluster text NOT NULL,
        manager text NOT NULL,
        identities text,
        objects bigint NOT NULL,
        fields bigint NOT NULL,
        CONSTRAINT fk_manager_time_checkpoint_totals_checkpoint FOREIGN KEY (generation, at) REFERENCES manager_time_checkpoints (generation, at) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX idx_manager_time_checkpoint_totals_checkpoint ON manager_time_checkpoint_totals (generation, at)`);
    await q.query(`CREATE INDEX idx_manager_objects_versions_start_time ON manager_objects_versions (generation, at)`);
    await q.query(`CREATE INDEX idx_manager_objects_versions_end_time ON manager_objects_versions (generation, until_at) WHERE until_seq IS NOT NULL`);
    // The deltas of a statement's rows: +1 where a version starts, -1 where it ends (the old rows' negated),
    // by time (a missing one: before every time). A row that ends where or before it starts has none.
    const start = `coalesce(r.at, '-infinity')`;
    const end = `coalesce(r.until_at, '-infinity')`;
    const deltas = (rows: string, sign: 1 | -1): string => `
      SELECT r.generation, ${start} AS pos, r.cluster, r.manager, r.identities::text AS ids, ${sign} AS objects, ${sign} * coalesce(r.identity_field_count, r.field_count) AS fields
      FROM ${rows} r WHERE r.until_seq IS NULL OR ${end} > ${start}
      UNION ALL
      SELECT r.generation, ${end}, r.cluster, r.manager, r.identities::text, ${-sign}, ${-sign} * coalesce(r.identity_field_count, r.field_count)
      FROM ${rows} r WHERE r.until_seq IS NOT NULL AND ${end} > ${start}`;
    // Only positions at or before a checkpoint of their generation are grouped (as ManagerCheckpoints' triggers).
    const invalidate = (source: string): string => `
          DELETE FROM manager_time_checkpoints c
          USING (SELECT d.generation, min(d.pos) AS pos
                 FROM (SELECT d.generation, d.pos
                       FROM (${source}) d
                       JOIN (SELECT k.generation, max(k.at) AS last FROM manager_time_checkpoints k GROUP BY k.generation) k
                         ON k.generation = d.generation AND d.pos <= k.last
                       GROUP BY d.generation, d.pos, d.cluster, d.manager, d.ids
                       HAVING sum(d.objects) <> 0 OR sum(d.fields) <> 0) d
                 GROUP BY d.generation) x
          WHERE c.generation = x.generation AND c.at >= x.pos;`;
    await q.query(`
      CREATE FUNCTION manager_time_checkpoints_follow() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(7291004);
        IF TG_OP = 'INSERT' THEN ${invalidate(deltas('added', 1))}
        ELSIF TG_OP = 'DELETE' THEN ${invalidate(deltas('removed', -1))}
        ELSE ${invalidate(`${deltas('added', 1)} UNION ALL ${deltas('removed', -1)}`)}
        END IF;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`CREATE TRIGGER manager_time_checkpoints_on_insert AFTER INSERT ON manager_objects_versions
                   REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION manager_time_checkpoints_follow()`);
    await q.query(`CREATE TRIGGER manager_time_checkpoints_on_update AFTER UPDATE ON manager_objects_versions
                   REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION manager_time_checkpoints_follow()`);
    await q.query(`CREATE TRIGGER manager_time_checkpoints_on_delete AFTER DELETE ON manager_objects_versions
                   REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION manager_time_checkpoints_follow()`);
    await q.query(`CREATE FUNCTION manager_time_checkpoints_empty() RETURNS trigger LANGUAGE plpgsql AS $fn$
                   BEGIN PERFORM pg_advisory_xact_lock_shared(7291004); DELETE FROM manager_time_checkpoints; RETURN NULL; END $fn$`);
    await q.query(`CREATE TRIGGER manager_time_checkpoints_on_truncate AFTER TRUNCATE ON manager_objects_versions
                   FOR EACH STATEMENT EXECUTE FUNCTION manager_time_checkpoints_empty()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER manager_time_checkpoints_on_truncate ON manager_objects_versions`);
    await q.query(`DROP FUNCTION manager_time_checkpoints_empty()`);
    await q.query(`DROP TRIGGER manager_time_checkpoints_on_delete ON manager_objects_versions`);
    await q.query(`DROP TRIGGER manager_time_checkpoints_on_update ON manager_objects_versions`);
    await q.query(`DROP TRIGGER manager_time_checkpoints_on_insert ON manager_objects_versions`);
    await q.query(`DROP FUNCTION manager_time_checkpoints_follow()`);
    await q.query(`DROP INDEX idx_manager_objects_versions_end_time`);
    await q.query(`DROP INDEX idx_manager_objects_versions_start_time`);
    await q.query(`DROP TABLE manager_time_checkpoint_totals`);
    await q.query(`DROP TABLE manager_time_checkpoints`);
  }
}
