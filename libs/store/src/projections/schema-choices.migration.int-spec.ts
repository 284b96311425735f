import type { DataSource, QueryRunner } from 'typeorm';
import type { SchemaUsed } from '../../../audit/src/index.js';
import { createTestDatabase, type TestDatabase } from '../../../testing/src/index.js';
import { SchemaChoices1795750000000 } from '../../../../migrations/1795750000000-SchemaChoices.js';
import { createDataSource } from '../database/database.js';
import { recordedSchemaSql, schemaChoiceId, schemaChoiceIds } from './schema-choices.js';
import { runMigrationStep } from '../testing/migration-step.js';

// Databases whose states record their schema inline (`ownership_states.schema`, as the first build of
// `OwnershipStateSchema` left them) move to `schema_choices`; those already there are left as they are.
describe('migration to schema choices by reference (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const migration = new SchemaChoices1795750000000();
  const run = (step: (q: QueryRunner) => Promise<void>) => runMigrationStep(ds, step);
  const choices: Record<string, SchemaUsed> = {
    a: { source: 'cluster', typeName: 'com.example.v1.Widget', digest: 'd1' },
    b: { source: 'deduced', typeName: null, digest: 'deduced' },
  };
  const recorded = async (): Promise<Record<string, unknown>> =>
    Object.fromEntries(
      (await ds.query(`SELECT s.object_id, ${recordedSchemaSql('s')} AS schema FROM ownership_states s ORDER BY s.object_id`)).map(
        (r: { object_id: string; schema: unknown }) => [r.object_id, r.schema],
      ),
    );

  beforeAll(async () => {
    db = await createTestDatabase('schema_choices');
    ds = await createDataSource(db.url, 2).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('moves inline choices into the table and keeps what each state recorded; a second run changes nothing', async () => {
    const ids = await schemaChoiceIds(ds, Object.values(choices));
    for (const [objectId, schemaId] of [['1', schemaChoiceId(ids, choices['a']!)], ['2', schemaChoiceId(ids, choices['b']!)], ['3', null]] as const) {
      await ds.query(
        `INSERT INTO ownership_states (generation, object_id, cluster, uid, api_group, api_version, kind, namespace, name, deleted,
                                       first_seq, first_at, last_seq, last_at, state, schema_id)
         VALUES (1, $1, 'c', 'u' || $1, 'example.com', 'v1', 'Widget', NULL, 'w' || $1, false, 1, now(), 1, now(), '{}', $2)`,
        [objectId, schemaId],
      );
    }
    const expected = { '1': choices['a'], '2': choices['b'], '3': null };
    expect(await recorded()).toEqual(expected);

    await run((q) => migration.down(q)); // as a database of the first build: the choices inline
    const inline = await ds.query(`SELECT object_id, schema FROM ownership_states ORDER BY object_id`);
    expect(inline).toEqual([{ object_id: '1', schema: choices['a'] }, { object_id: '2', schema: choices['b'] }, { object_id: '3', schema: null }]);

    await run((q) => migration.up(q));
    expect(await recorded()).toEqual(expected);
    const columns = await ds.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'ownership_states' AND column_name IN ('schema', 'schema_id')`);
    expect(columns).toEqual([{ column_name: 'schema_id' }]);

    await run((q) => migration.up(q)); // a database the later build of OwnershipStateSchema migrated
    expect(await recorded()).toEqual(expected);
    expect(await ds.query(`SELECT count(*)::int AS n FROM schema_choices`)).toEqual([{ n: 2 }]);
  });
});
