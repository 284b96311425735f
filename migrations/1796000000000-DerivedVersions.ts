import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The findings and the manager index as of any sequence, so `GET /v1/findings?at=<seq>` and
 * `GET /v1/managers?at=<seq>` read rows instead of folding every object's events.
 *
 * - `findings_versions`: an object's findings from the event `seq` on, until the event `until_seq`
 *   (`NULL`: still in force), written by the projection whenever they change; only non-empty ones.
 * - `manager_objects_versions`: the same for each `manager_objects` row (what one manager owns in
 *   one object), until it changes or the manager owns nothing there any more (identities nullable
 *   like there: a row an earlier version's worker wrote has none).
 * - `ownership_states.versions_through`: the `last_seq` of the state as it was when versions were
 *   last written for it. A state an earlier version's worker writes during the rollout leaves it
 *   behind (or null), and while any state lags, `at=` folds instead of reading the versions
 *   (a partial index keeps finding them cheap).
 * - `derived_versions_start`: a generation that had states before these tables existed has versions
 *   only from this sequence on (its newest projected event then): `at=` before it folds, as before.
 *   No row: complete. `migrate` fills the three from the stored rows after the migrations
 *   (libs/store's `runDerivedBackfills`), since those may themselves be filled there.
 */
export class DerivedVersions1796000000000 implements MigrationInterface {
  name = 'DerivedVersions1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE findings_versions (
        generation integer NOT NULL,
        object_id text NOT NULL,
        seq bigint NOT NULL,
        until_seq bigint,
        cluster text NOT NULL,
        findings json NOT NULL,
        CONSTRAINT pk_findings_versions PRIMARY KEY (generation, object_id, seq)
      )`);
    // The list's order (cluster, then object id, compared as the audit lib compares strings), then the versions of each object.
    await q.query(`CREATE INDEX idx_findings_versions_order ON findings_versions (generation, cluster COLLATE "C", object_id COLLATE "C", seq)`);
    await q.query(`
      CREATE TABLE manager_objects_versions (
        generation integer NOT NULL,
        object_id text NOT NULL,
        manager text NOT NULL,
        seq bigint NOT NULL,
        until_seq bigint,
        cluster text NOT NULL,
        field_count integer NOT NULL,
        identities json,
        identity_field_count integer,
        CONSTRAINT pk_manager_objects_versions PRIMARY KEY (generation, object_id, manager, seq)
      )`);
    await q.query(`ALTER TABLE ownership_states ADD COLUMN versions_through bigint`);
    await q.query(`CREATE INDEX idx_ownership_states_versions_behind ON ownership_states (generation) WHERE versions_through IS DISTINCT FROM last_seq`);
    await q.query(`
      CREATE TABLE derived_versions_start (
        generation integer NOT NULL,
        seq bigint NOT NULL,
        CONSTRAINT pk_derived_versions_start PRIMARY KEY (generation)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE derived_versions_start`);
    await q.query(`ALTER TABLE ownership_states DROP COLUMN versions_through`);
    await q.query(`DROP TABLE manager_objects_versions`);
    await q.query(`DROP TABLE findings_versions`);
  }
}
