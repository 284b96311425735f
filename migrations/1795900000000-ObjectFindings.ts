import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored findings and the manager index's identities, so `GET /v1/findings` and `GET /v1/managers`
 * read rows instead of decoding every state.
 *
 * - `object_findings`: the findings of every object that has any (in the order the list gives them),
 *   written by the projection with the object's state.
 * - `manager_objects.identities` (`[operation, apiVersion, subresource]` lists) and
 *   `identity_field_count` (owned paths counted once per identity owning them). Nullable: a row an
 *   earlier version's worker writes during the rollout has neither (reads fall back on `field_count`).
 * - `derived_backfills`: which fills of derived rows from the stored states have run. Those rows
 *   are computed by the audit lib, so `migrate` fills them after the migrations (libs/store's
 *   `runDerivedBackfills`), not here.
 */
export class ObjectFindings1795900000000 implements MigrationInterface {
  name = 'ObjectFindings1795900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE object_findings (
        generation integer NOT NULL,
        object_id text NOT NULL,
        cluster text NOT NULL,
        findings json NOT NULL,
        CONSTRAINT pk_object_findings PRIMARY KEY (generation, object_id)
      )`);
    // The list's order: cluster, then object id, compared as the audit lib compares strings (code points, as "C" does).
    await q.query(`CREATE INDEX idx_object_findings_order ON object_findings (generation, cluster COLLATE "C", object_id COLLATE "C")`);
    await q.query(`ALTER TABLE manager_objects ADD COLUMN identities json, ADD COLUMN identity_field_count integer`);
    await q.query(`
      CREATE TABLE derived_backfills (
        name text NOT NULL,
        done_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_derived_backfills PRIMARY KEY (name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE derived_backfills`);
    await q.query(`ALTER TABLE manager_objects DROP COLUMN identities, DROP COLUMN identity_field_count`);
    await q.query(`DROP TABLE object_findings`);
  }
}
