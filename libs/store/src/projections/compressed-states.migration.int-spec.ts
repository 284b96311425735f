import type { DataSource, QueryRunner } from 'typeorm';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, scaledBy, type TestDatabase } from '../../../testing/src/index.js';
import { CompressedStates1796800000000 } from '../../../../migrations/1796800000000-CompressedStates.js';
import { createDataSource } from '../database/database.js';
import type { EventAppender } from '../events/event-appender.js';
import { foldingAppender } from '../testing/worker-use-cases.js';
import { PostgresOwnershipProjectionStore } from './ownership-projection.store.js';
import { decompressStateDocument } from './state-document.codec.js';
import { runMigrationStep } from '../testing/migration-step.js';

// States are written compressed; rows written as json before read the same; `down` writes every one back as json.
describe('projection states stored compressed, and the migration to and from them (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let appender: EventAppender;
  const migration = new CompressedStates1796800000000();
  const run = (step: (q: QueryRunner) => Promise<void>) => runMigrationStep(ds, step);
  const active = async (): Promise<number> => (await ds.query(`SELECT active FROM projection_generations`))[0].active;
  const ids = async (): Promise<string[]> => (await ds.query(`SELECT object_id FROM ownership_states ORDER BY object_id`)).map((r: { object_id: string }) => r.object_id);
  /** Every state as the projector loads it, as JSON text (key order counts). */
  const loaded = async (): Promise<string> => {
    const states = await new PostgresOwnershipProjectionStore(ds, await active(), null).load(await ids());
    return JSON.stringify([...states.entries()].sort(([a], [b]) => a.localeCompare(b)));
  };
  const forms = async () => ds.query(`SELECT count(state)::int AS json, count(state_compressed)::int AS compressed FROM ownership_states`);

  beforeAll(async () => {
    db = await createTestDatabase('compressed_states');
    ds = await createDataSource(db.url, 2).initialize();
    appender = foldingAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('writes states compressed, reads json rows of before the same, and goes down and up again without a change', async () => {
    // More than two pages of `down` (500 rows each), a value with U+0000 among them.
    const first = Array.from({ length: 1_203 }, (_, i) => deploymentObservation({ uid: `u${i}`, name: `d${i}`, resourceVersion: '1' }));
    const nul = first[7]!;
    first[7] = { ...nul, object: { ...nul.object, metadata: { ...nul.object.metadata, annotations: { owner: 'a\u0000b' } } } };
    await appender.append(first);
    await appender.append(first.slice(0, 10).map((o) => scaledBy(o, 'hpa', 3, '2')));
    expect(await forms()).toEqual([{ json: 0, compressed: 1_203 }]);
    const written = await loaded();
    expect(written).toContain('"owner":"a\\u0000b"');

    await run((q) => migration.down(q)); // as a database of the build before: every document json
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM ownership_states WHERE state IS NULL`);
    expect(n).toBe(0);
    const columns = await ds.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'ownership_states' AND column_name = 'state_compressed'`);
    expect(columns).toEqual([]);
    const [{ nullable }] = await ds.query(`SELECT is_nullable AS nullable FROM information_schema.columns WHERE table_name = 'ownership_states' AND column_name = 'state'`);
    expect(nullable).toBe('NO');

    await run((q) => migration.up(q));
    expect(await forms()).toEqual([{ json: 1_203, compressed: 0 }]);
    expect(await loaded()).toBe(written);

    // The next event of an object rewrites its state compressed; the others stay json, and every state reads as before.
    await appender.append([scaledBy(scaledBy(first[0]!, 'hpa', 3, '2'), 'kubectl-scale', 4, '3')]);
    expect(await forms()).toEqual([{ json: 1_202, compressed: 1 }]);
    const after = JSON.parse(await loaded()) as [string, { eventCount: number }][];
    const before = JSON.parse(written) as [string, { eventCount: number }][];
    expect(after.filter(([, s], i) => JSON.stringify(s) !== JSON.stringify(before[i]![1])).map(([, s]) => s.eventCount)).toEqual([3]);

    // Exactly one form of the document.
    const row = `1, 'x', 'c', 'ux', '', 'v1', 'ConfigMap', NULL, 'x', false, 1, now(), 1, now()`;
    await expect(ds.query(`INSERT INTO ownership_states (generation, object_id, cluster, uid, api_group, api_version, kind, namespace, name, deleted, first_seq, first_at, last_seq, last_at) VALUES (${row})`)).rejects.toThrow(
      /ck_ownership_states_one_document/,
    );
    await expect(
      ds.query(
        `INSERT INTO ownership_states (generation, object_id, cluster, uid, api_group, api_version, kind, namespace, name, deleted, first_seq, first_at, last_seq, last_at, state, state_compressed) VALUES (${row}, '{}', '\\x01')`,
      ),
    ).rejects.toThrow(/ck_ownership_states_one_document/);
    expect(decompressStateDocument((await ds.query(`SELECT state_compressed FROM ownership_states WHERE state_compressed IS NOT NULL`))[0].state_compressed)).toHaveProperty('eventCount', 3);
  });
});
