import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /v1/managers?at=<seq>` from checkpoints instead of every index version in force then (which
 * grows with the cluster and its history: 60,000 version rows read at 20,000 objects).
 *
 * - `manager_checkpoints` (generation, seq): the sums of the manager index's versions in force at
 *   `seq`, kept in `manager_checkpoint_totals`, one row per (cluster, manager, identities as text) as
 *   `manager_totals` keys them. Built by the worker (`ManagerCheckpoints`) every `CHECKPOINT_EVERY`
 *   sequences of the projected log.
 * - Two indexes of `manager_objects_versions`, by start (`seq`) and by end (`until_seq`, the closed
 *   rows only): the sums at any sequence S are the nearest checkpoint at or below S plus the versions
 *   that start after it up to S, minus those that end after it up to S.
 * - A checkpoint holds only while no version starts or ends at or before its sequence after it was
 *   built. Three statement-level triggers on the versions delete, for each statement that changes a
 *   start or an end (its old rows taken away and its new ones added, positions whose sums cancel out
 *   left out), the checkpoints of its generation at or after the lowest such position: a late commit
 *   projected below a checkpoint, a re-projection of an object, a backfill, a generation dropped.
 *   They take `MANAGER_CHECKPOINTS_LOCK` shared and the builder takes it exclusively, so a checkpoint
 *   is never built from a snapshot that misses a batch whose trigger has already run. A TRUNCATE of
 *   the versions deletes every checkpoint. A version that ends where or before it starts (no writer
 *   makes one) is never in force, as the sums of versions in force say, so it counts nowhere.
 *
 * Up: the tables, the indexes (writes to the versions wait while they are built: 0.61 s and 0.21 s
 * for 1,000,000 versions, a third of them closed, on the machine of docs/benchmarks.md), the
 * triggers. No checkpoint is built here: reads are exact without one (they sum from the start), and
 * the worker builds them.
 */
export class ManagerCheckpoints1796600000000 implements MigrationInterface {
  name = 'ManagerCheckpoints1796600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE manager_checkpoints (
        generation integer NOT NULL,
        seq bigint NOT NULL,
        CONSTRAINT pk_manager_checkpoints PRIMARY KEY (generation, seq)
      )`);
    await q.query(`
      CREATE TABLE manager_checkpoint_totals (
        generation integer NOT NULL,
        seq bigint NOT NULL,
        cluster text NOT NULL,
        manager text NOT NULL,
        identities text,
        objects bigint NOT NULL,
        fields bigint NOT NULL,
        CONSTRAINT fk_manager_checkpoint_totals_checkpoint FOREIGN KEY (generation, seq) REFERENCES manager_checkpoints (generation, seq) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX idx_manager_checkpoint_totals_checkpoint ON manager_checkpoint_totals (generation, seq)`);
    await q.query(`CREATE INDEX idx_manager_objects_versions_start ON manager_objects_versions (generation, seq)`);
    await q.query(`CREATE INDEX idx_manager_objects_versions_end ON manager_objects_versions (generation, until_seq) WHERE until_seq IS NOT NULL`);
    // The deltas of a statement's rows: +1 where a version starts, -1 where it ends (the old rows' negated).
    // (A row that ends where or before it starts is never in force: it has none.)
    const deltas = (rows: string, sign: 1 | -1): string => `
      SELECT r.generation, r.seq AS pos, r.cluster, r.manager, r.identities::text AS ids, ${sign} AS objects, ${sign} * coalesce(r.identity_field_count, r.field_count) AS fields
      FROM ${rows} r WHERE r.until_seq IS NULL OR r.until_seq > r.seq
      UNION ALL
      SELECT r.generation, r.until_seq, r.cluster, r.manager, r.identities::text, ${-sign}, ${-sign} * coalesce(r.identity_field_count, r.field_count)
      FROM ${rows} r WHERE r.until_seq > r.seq`;
    // Only positions at or below a checkpoint of their generation are grouped: a live batch's are all
    // above them, a retired generation's have none (their checkpoints are deleted first).
    const invalidate = (source: string): string => `
          DELETE FROM manager_checkpoints c
          USING (SELECT d.generation, min(d.pos) AS pos
                 FROM (SELECT d.generation, d.pos
                       FROM (${source}) d
                       JOIN (SELECT k.generation, max(k.seq) AS last FROM manager_checkpoints k GROUP BY k.generation) k
                         ON k.generation = d.generation AND d.pos <= k.last
                       GROUP BY d.generation, d.pos, d.cluster, d.manager, d.ids
                       HAVING sum(d.objects) <> 0 OR sum(d.fields) <> 0) d
                 GROUP BY d.generation) x
          WHERE c.generation = x.generation AND c.seq >= x.pos;`;
    await q.query(`
      CREATE FUNCTION manager_checkpoints_follow() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(7291004);
        IF TG_OP = 'INSERT' THEN ${invalidate(deltas('added', 1))}
        ELSIF TG_OP = 'DELETE' THEN ${invalidate(deltas('removed', -1))}
        ELSE ${invalidate(`${deltas('added', 1)} UNION ALL ${deltas('removed', -1)}`)}
        END IF;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`CREATE TRIGGER manager_checkpoints_on_insert AFTER INSERT ON manager_objects_versions
                   REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION manager_checkpoints_follow()`);
    await q.query(`CREATE TRIGGER manager_checkpoints_on_update AFTER UPDATE ON manager_objects_versions
                   REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION manager_checkpoints_follow()`);
    await q.query(`CREATE TRIGGER manager_checkpoints_on_delete AFTER DELETE ON manager_objects_versions
                   REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION manager_checkpoints_follow()`);
    await q.query(`CREATE FUNCTION manager_checkpoints_empty() RETURNS trigger LANGUAGE plpgsql AS $fn$
                   BEGIN PERFORM pg_advisory_xact_lock_shared(7291004); DELETE FROM manager_checkpoints; RETURN NULL; END $fn$`);
    await q.query(`CREATE TRIGGER manager_checkpoints_on_truncate AFTER TRUNCATE ON manager_objects_versions
                   FOR EACH STATEMENT EXECUTE FUNCTION manager_checkpoints_empty()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER manager_checkpoints_on_truncate ON manager_objects_versions`);
    await q.query(`DROP FUNCTION manager_checkpoints_empty()`);
    await q.query(`DROP TRIGGER manager_checkpoints_on_delete ON manager_objects_versions`);
    await q.query(`DROP TRIGGER manager_checkpoints_on_update ON manager_objects_versions`);
    await q.query(`DROP TRIGGER manager_checkpoints_on_insert ON manager_objects_versions`);
    await q.query(`DROP FUNCTION manager_checkpoints_follow()`);
    await q.query(`DROP INDEX idx_manager_objects_versions_end`);
    await q.query(`DROP INDEX idx_manager_objects_versions_start`);
    await q.query(`DROP TABLE manager_checkpoint_totals`);
    await q.query(`DROP TABLE manager_checkpoints`);
  }
}
