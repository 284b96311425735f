import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The schema a projection state was folded with, by reference: the few distinct choices
 * (`{source, typeName, digest}`) live in `schema_choices`, and each state points at one
 * (`schema_id`, 4 bytes; the choice inline, `ownership_states.schema`, cost every state about 270).
 * A deduced schema has no type name: stored as '' so the unique key holds.
 *
 * Databases migrated by an earlier build of `OwnershipStateSchema` already have the table and the
 * column and no `schema` left: every step here is a no-op for them. Elsewhere the recorded choices
 * move from the column into the table (one pass over the states) and the column is dropped.
 */
export class SchemaChoices1795750000000 implements MigrationInterface {
  name = 'SchemaChoices1795750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS schema_choices (
        id integer GENERATED ALWAYS AS IDENTITY,
        source text NOT NULL,
        type_name text NOT NULL,
        digest text NOT NULL,
        CONSTRAINT pk_schema_choices PRIMARY KEY (id),
        CONSTRAINT uq_schema_choices UNIQUE (source, type_name, digest)
      )`);
    await q.query(`ALTER TABLE ownership_states ADD COLUMN IF NOT EXISTS schema_id integer`);
    if (!(await hasInlineSchema(q))) return;
    await q.query(`
      INSERT INTO schema_choices (source, type_name, digest)
      SELECT DISTINCT schema->>'source', coalesce(schema->>'typeName', ''), schema->>'digest' FROM ownership_states WHERE schema IS NOT NULL
      ON CONFLICT (source, type_name, digest) DO NOTHING`);
    await q.query(`
      UPDATE ownership_states s SET schema_id = c.id FROM schema_choices c
      WHERE s.schema IS NOT NULL AND c.source = s.schema->>'source' AND c.type_name = coalesce(s.schema->>'typeName', '') AND c.digest = s.schema->>'digest'`);
    await q.query(`ALTER TABLE ownership_states DROP COLUMN schema`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ownership_states ADD COLUMN schema jsonb`);
    await q.query(`
      UPDATE ownership_states s SET schema = jsonb_build_object('source', c.source, 'typeName', nullif(c.type_name, ''), 'digest', c.digest)
      FROM schema_choices c WHERE c.id = s.schema_id`);
    await q.query(`ALTER TABLE ownership_states DROP COLUMN schema_id`);
    await q.query(`DROP TABLE schema_choices`);
  }
}

async function hasInlineSchema(q: QueryRunner): Promise<boolean> {
  const rows: unknown[] = await q.query(
    `SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'ownership_states' AND column_name = 'schema'`,
  );
  return rows.length > 0;
}
