import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ownership versions, the projection's documents as `json` (states with encoded fields: the
 * projections are rebuilt from the events), and no secondary indexes on transitions.
 *
 * Ownership versions: an object's owned fields and deleted flag from each event that changed
 * them. An `at=` read takes the version in force at that sequence and the body of the object's
 * latest event up to it, instead of folding every event again. `json`, not `jsonb`: written once,
 * read whole, never queried inside (and cheaper to write).
 */
export class CreateOwnershipVersions1795300000000 implements MigrationInterface {
  name = 'CreateOwnershipVersions1795300000000';

  async up(q: QueryRunner): Promise<void> {
    // States are stored with their fields encoded now, and versions exist only for what is folded
    // from here on: drop the derived rows, so the projector folds every event again from the start.
    await q.query(`DELETE FROM field_transitions`);
    await q.query(`DELETE FROM manager_objects`);
    await q.query(`DELETE FROM ownership_states`);
    await q.query(`DELETE FROM projection_checkpoints WHERE projection LIKE 'ownership@%'`);
    // Documents that are written often, read whole and never queried inside: json keeps their text as
    // written (no conversion to jsonb's binary form on every write and back on every read).
    await q.query(`ALTER TABLE ownership_states ALTER COLUMN state TYPE json USING state::json`);
    await q.query(`ALTER TABLE field_transitions ALTER COLUMN transition TYPE json USING transition::json`);
    // Transitions are read by object (the primary key); nothing reads them by path, manager or
    // sequence alone, and every first observation writes one per owned path: no indexes to maintain for them.
    await q.query(`DROP INDEX idx_field_transitions_object_path_seq`);
    await q.query(`DROP INDEX idx_field_transitions_manager_seq`);
    await q.query(`DROP INDEX idx_field_transitions_seq`);
    // Every projection batch rewrites its objects' states (tens of KiB each): lz4 compresses them far
    // faster than the default pglz. Servers built without lz4 (and the embedded PGlite) keep pglz.
    await q.query(`
      DO $$ BEGIN
        ALTER TABLE ownership_states ALTER COLUMN state SET COMPRESSION lz4;
      EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL;
      END $$`);
    await q.query(`
      CREATE TABLE ownership_versions (
        generation integer NOT NULL,
        object_id text NOT NULL,
        seq bigint NOT NULL,
        deleted boolean NOT NULL,
        fold_required boolean NOT NULL,
        fields json NOT NULL,
        CONSTRAINT pk_ownership_versions PRIMARY KEY (generation, object_id, seq)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ownership_versions`);
    await q.query(`CREATE INDEX idx_field_transitions_seq ON field_transitions (generation, seq)`);
    await q.query(`CREATE INDEX idx_field_transitions_manager_seq ON field_transitions (generation, manager, seq)`);
    await q.query(`CREATE INDEX idx_field_transitions_object_path_seq ON field_transitions (generation, object_id, fields_v1_path, seq)`);
    await q.query(`ALTER TABLE field_transitions ALTER COLUMN transition TYPE jsonb USING transition::jsonb`);
    await q.query(`ALTER TABLE ownership_states ALTER COLUMN state TYPE jsonb USING state::jsonb`);
  }
}
