import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `manager_totals`: what `GET /v1/managers` sums, kept as the index changes, so that the list reads
 * a few rows per manager instead of one per (manager, object) (600,000 at 200,000 objects).
 *
 * Each row is a part of a sum keyed by (generation, cluster, manager, identities as the JSON text of
 * the `manager_objects` rows they sum): `objects` rows and `fields` paths counted once per identity
 * (`coalesce(identity_field_count, field_count)`, what the list's `fieldCount` sums). A key's sums
 * are the sums of its rows. Three statement-level triggers on `manager_objects` add one row per key a
 * statement changed: the rows it inserted counted up, those it deleted counted down, an update both
 * (keys whose parts cancel out left out). Every writer of the index keeps them (the projection, its
 * deletes and backfills, a generation dropped, a worker of an earlier version during an upgrade),
 * and the parts are only inserted, so concurrent batches never wait on each other's rows. The
 * worker folds a key's parts into one row every few seconds (`ManagerTotalsCompaction`). A
 * TRUNCATE of the index (which fires no DELETE trigger) empties the totals. Sums are `bigint`, so a
 * part never overflows where the read's `integer` would not.
 *
 * Up: the table, the triggers, then the sums of the stored rows, with `manager_objects` locked
 * against writes in between (a batch committing then would be counted twice or not at all).
 */
export class ManagerTotals1796400000000 implements MigrationInterface {
  name = 'ManagerTotals1796400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE manager_objects IN SHARE ROW EXCLUSIVE MODE`);
    await q.query(`
      CREATE TABLE manager_totals (
        generation integer NOT NULL,
        cluster text NOT NULL,
        manager text NOT NULL,
        identities text,
        objects bigint NOT NULL,
        fields bigint NOT NULL
      )`);
    await q.query(`CREATE INDEX idx_manager_totals_manager ON manager_totals (generation, manager COLLATE "C")`);
    await q.query(`
      CREATE FUNCTION manager_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO manager_totals (generation, cluster, manager, identities, objects, fields)
          SELECT a.generation, a.cluster, a.manager, a.identities::text, count(*), sum(coalesce(a.identity_field_count, a.field_count))
          FROM added a GROUP BY a.generation, a.cluster, a.manager, a.identities::text;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO manager_totals (generation, cluster, manager, identities, objects, fields)
          SELECT r.generation, r.cluster, r.manager, r.identities::text, -count(*), -sum(coalesce(r.identity_field_count, r.field_count))
          FROM removed r GROUP BY r.generation, r.cluster, r.manager, r.identities::text;
        ELSE
          INSERT INTO manager_totals (generation, cluster, manager, identities, objects, fields)
          SELECT d.generation, d.cluster, d.manager, d.identities, sum(d.objects), sum(d.fields)
          FROM (SELECT a.generation, a.cluster, a.manager, a.identities::text AS identities, 1 AS objects,
                       coalesce(a.identity_field_count, a.field_count) AS fields FROM added a
                UNION ALL
                SELECT r.generation, r.cluster, r.manager, r.identities::text, -1, -coalesce(r.identity_field_count, r.field_count) FROM removed r) d
          GROUP BY d.generation, d.cluster, d.manager, d.identities
          HAVING sum(d.objects) <> 0 OR sum(d.fields) <> 0;
        END IF;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`CREATE TRIGGER manager_totals_on_insert AFTER INSERT ON manager_objects
                   REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION manager_totals_follow()`);
    await q.query(`CREATE TRIGGER manager_totals_on_update AFTER UPDATE ON manager_objects
                   REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION manager_totals_follow()`);
    await q.query(`CREATE TRIGGER manager_totals_on_delete AFTER DELETE ON manager_objects
                   REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION manager_totals_follow()`);
    // TRUNCATE fires no row or DELETE trigger: emptying the index empties its totals, under the
    // compaction's lock (MANAGER_TOTALS_LOCK in libs/store: else a compaction in flight leaves its folded row).
    await q.query(`CREATE FUNCTION manager_totals_empty() RETURNS trigger LANGUAGE plpgsql AS $fn$
                   BEGIN PERFORM pg_advisory_xact_lock(7291003); DELETE FROM manager_totals; RETURN NULL; END $fn$`);
    await q.query(`CREATE TRIGGER manager_totals_on_truncate AFTER TRUNCATE ON manager_objects FOR EACH STATEMENT EXECUTE FUNCTION manager_totals_empty()`);
    await q.query(`
      INSERT INTO manager_totals (generation, cluster, manager, identities, objects, fields)
      SELECT m.generation, m.cluster, m.manager, m.identities::text, count(*), sum(coalesce(m.identity_field_count, m.field_count))
      FROM manager_objects m GROUP BY m.generation, m.cluster, m.manager, m.identities::text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER manager_totals_on_truncate ON manager_objects`);
    await q.query(`DROP FUNCTION manager_totals_empty()`);
    await q.query(`DROP TRIGGER manager_totals_on_delete ON manager_objects`);
    await q.query(`DROP TRIGGER manager_totals_on_update ON manager_objects`);
    await q.query(`DROP TRIGGER manager_totals_on_insert ON manager_objects`);
    await q.query(`DROP FUNCTION manager_totals_follow()`);
    await q.query(`DROP TABLE manager_totals`);
  }
}
