import type { DataSource } from 'typeorm';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import type { EventAppender } from '../events/event-appender.js';
import { foldingAppender } from '../testing/worker-use-cases.js';

describe('a batch closes the manager versions it ends through the primary key (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let appender: EventAppender;

  beforeAll(async () => {
    db = await createTestDatabase('closing_manager_versions');
    // One connection: the appends run on the backend whose statistics the test flushes and reads.
    ds = await createDataSource(db.url, 1).initialize();
    appender = foldingAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  /** Index scans and the index entries they read, per index of manager_objects_versions, in this database (this backend's counts flushed first). */
  const indexReads = async (): Promise<Map<string, { scans: number; read: number }>> => {
    await ds.query(`SELECT pg_stat_force_next_flush()`);
    const rows: { name: string; scans: number; read: number }[] = await ds.query(
      `SELECT indexrelname AS name, idx_scan::int AS scans, idx_tup_read::int AS read FROM pg_stat_user_indexes WHERE relname = 'manager_objects_versions'`,
    );
    return new Map(rows.map((r) => [r.name, { scans: r.scans, read: r.read }]));
  };

  it('reads only that manager\'s versions of the object, whatever the statistics say', async () => {
    // As while a cluster is first listed: the table grows faster than its statistics (none here: no analyze runs).
    await ds.query(`ALTER TABLE manager_objects_versions SET (autovacuum_enabled = off)`);
    const first = Array.from({ length: 400 }, (_, i) => deploymentObservation({ uid: `u${i}`, name: `d${i}`, resourceVersion: '1' }));
    for (let i = 0; i < first.length; i += 100) await appender.append(first.slice(i, i + 100));
    // And a long history of another manager on each object that changes next (closed versions, as a churning co-owner leaves).
    await ds.query(
      `INSERT INTO manager_objects_versions (generation, object_id, manager, seq, until_seq, cluster, field_count, identities, identity_field_count, at, until_at)
       SELECT v.generation, v.object_id, 'churner', -1000 + 2 * k, -999 + 2 * k, v.cluster, 1, '[["Update","apps/v1",""]]', 1, NULL, NULL
       FROM (SELECT DISTINCT generation, object_id, cluster FROM manager_objects_versions) v CROSS JOIN generate_series(1, 50) k`,
    );
    const before = await indexReads();
    // A hundred objects' applier takes .spec.replicas too: its version in force of each ends here.
    await appender.append(Array.from({ length: 100 }, (_, i) => deploymentObservation({ uid: `u${i}`, name: `d${i}`, resourceVersion: '2', applierOwnsReplicas: true })));
    const after = await indexReads();
    const byManager = 'idx_manager_objects_versions_manager';
    expect(after.get(byManager)!.scans - before.get(byManager)!.scans).toBe(0);
    // The closing lookups went through the primary key, a handful of entries each: not every version of the manager
    // (400 objects), nor of the object (50 closed ones of another manager).
    const pk = 'pk_manager_objects_versions';
    expect(after.get(pk)!.scans - before.get(pk)!.scans).toBeGreaterThanOrEqual(100);
    expect(after.get(pk)!.read - before.get(pk)!.read).toBeLessThan(100 * 10);
    // And they were closed: every such object has exactly one open version per manager.
    const [{ doubled }] = await ds.query(
      `SELECT count(*)::int AS doubled FROM (SELECT object_id, manager FROM manager_objects_versions WHERE until_seq IS NULL GROUP BY 1, 2 HAVING count(*) > 1) x`,
    );
    expect(doubled).toBe(0);
    const [{ closed }] = await ds.query(`SELECT count(*)::int AS closed FROM manager_objects_versions WHERE until_seq IS NOT NULL AND manager <> 'churner'`);
    expect(closed).toBe(100);
  });
});
