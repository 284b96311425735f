import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ownership projections (derived from events, never the truth): per-object ownership state,
 * field transitions and the per-manager index. Every row belongs to a generation; queries read the
 * active generation of `projection_generations`, and a full replay fills the next generation and then
 * swaps it in with one update, so queries keep working during a rebuild.
 */
export class CreateOwnershipProjections1795266505291 implements MigrationInterface {
  name = 'CreateOwnershipProjections1795266505291';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE projection_generations (
        projection text NOT NULL,
        active integer NOT NULL,
        building integer,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_projection_generations PRIMARY KEY (projection),
        CONSTRAINT ck_projection_generations_building CHECK (building IS NULL OR building > active)
      )`);
    await q.query(`INSERT INTO projection_generations (projection, active) VALUES ('ownership', 1)`);

    // One row per object: the identity columns filter GET /v1/objects; the state is the audit lib's ObjectOwnershipState.
    await q.query(`
      CREATE TABLE ownership_states (
        generation integer NOT NULL,
        object_id text NOT NULL,
        cluster text NOT NULL,
        uid text NOT NULL,
        api_group text NOT NULL,
        api_version text NOT NULL,
        kind text NOT NULL,
        namespace text,
        name text NOT NULL,
        deleted boolean NOT NULL,
        first_seq bigint NOT NULL,
        first_at timestamptz NOT NULL,
        last_seq bigint NOT NULL,
        last_at timestamptz NOT NULL,
        state jsonb NOT NULL,
        CONSTRAINT pk_ownership_states PRIMARY KEY (generation, object_id)
      )`);
    await q.query(`CREATE INDEX idx_ownership_states_identity ON ownership_states (generation, cluster, kind, namespace, name)`);

    // Transitions of one event keep their order (ordinal). Looked up by object + path, by manager, by sequence.
    await q.query(`
      CREATE TABLE field_transitions (
        generation integer NOT NULL,
        object_id text NOT NULL,
        seq bigint NOT NULL,
        ordinal integer NOT NULL,
        at timestamptz NOT NULL,
        type text NOT NULL,
        path text NOT NULL,
        fields_v1_path text NOT NULL,
        manager text,
        operation text,
        subresource text,
        transition jsonb NOT NULL,
        CONSTRAINT pk_field_transitions PRIMARY KEY (generation, object_id, seq, ordinal)
      )`);
    await q.query(`CREATE INDEX idx_field_transitions_object_path_seq ON field_transitions (generation, object_id, fields_v1_path, seq)`);
    await q.query(`CREATE INDEX idx_field_transitions_manager_seq ON field_transitions (generation, manager, seq)`);
    await q.query(`CREATE INDEX idx_field_transitions_seq ON field_transitions (generation, seq)`);

    // Which manager owns how many fields of which object now (cluster-wide manager queries).
    await q.query(`
      CREATE TABLE manager_objects (
        generation integer NOT NULL,
        manager text NOT NULL,
        object_id text NOT NULL,
        cluster text NOT NULL,
        kind text NOT NULL,
        namespace text,
        field_count integer NOT NULL,
        CONSTRAINT pk_manager_objects PRIMARY KEY (generation, manager, object_id)
      )`);
    await q.query(`CREATE INDEX idx_manager_objects_object ON manager_objects (generation, object_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE manager_objects`);
    await q.query(`DROP TABLE field_transitions`);
    await q.query(`DROP TABLE ownership_states`);
    await q.query(`DROP TABLE projection_generations`);
  }
}
