import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The schema each object's projection was folded with, beside its state: answers say which schema
 * they come from, and the projector re-projects the objects whose recorded digest differs from the
 * schema the cluster's stored OpenAPI gives now. The few distinct choices (`{source, typeName,
 * digest}`) live in `schema_choices` and each state points at one (`schema_id`, 4 bytes; the choice
 * inline would cost every state about 270). A choice has no type name where the schema was
 * deduced: stored as '' so the unique key holds. States stored before have none (null): they were
 * folded with the bundled or deduced schema, and the projector treats them so. Adding a nullable
 * column rewrites nothing.
 */
export class OwnershipStateSchema1795600000000 implements MigrationInterface {
  name = 'OwnershipStateSchema1795600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE schema_choices (
        id integer GENERATED ALWAYS AS IDENTITY,
        source text NOT NULL,
        type_name text NOT NULL,
        digest text NOT NULL,
        CONSTRAINT pk_schema_choices PRIMARY KEY (id),
        CONSTRAINT uq_schema_choices UNIQUE (source, type_name, digest)
      )`);
    await q.query(`ALTER TABLE ownership_states ADD COLUMN schema_id integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ownership_states DROP COLUMN schema_id`);
    await q.query(`DROP TABLE schema_choices`);
  }
}
