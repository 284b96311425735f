import type { DataSource } from 'typeorm';
import { ManagerTotals1796400000000 } from '../../../../migrations/1796400000000-ManagerTotals.js';
import { createTestDatabase, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import { managerTotalsAndIndexSums } from '../testing/manager-totals.sums.js';
import { ProjectionGenerationsRepository } from '../projections/projection-generations.repository.js';
import { MANAGER_TOTALS_LOCK, ManagerTotalsCompaction } from './manager-totals-compaction.js';

describe('manager_totals (real Postgres): the triggers, the migration, the compaction', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const expectTotalsToMatchTheIndex = async () => {
    const { totals, counted } = await managerTotalsAndIndexSums(ds);
    expect(totals).toEqual(counted);
  };
  const insert = (generation: number, manager: string, objects: [number, number], identities: string | null, fields = 3, cluster = 'c') =>
    ds.query(
      `INSERT INTO manager_objects (generation, manager, object_id, cluster, kind, namespace, field_count, identities, identity_field_count)
       SELECT $1, $2, i::text, $5, 'ConfigMap', 'default', $6, $4::json, CASE WHEN $4::json IS NULL THEN NULL ELSE $6 + 1 END
       FROM generate_series($3::int, $7::int) AS i
       ON CONFLICT (generation, manager, object_id) DO UPDATE
         SET field_count = EXCLUDED.field_count, identities = EXCLUDED.identities, identity_field_count = EXCLUDED.identity_field_count`,
      [generation, manager, objects[0], identities, cluster, fields, objects[1]],
    );

  beforeAll(async () => {
    db = await createTestDatabase('manager_totals');
    ds = await createDataSource(db.url, 3).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('follows every insert, upsert, update and delete of the index, statement by statement, and compacts to the same sums', async () => {
    const apply = '[["Apply","v1",""]]';
    const both = '[["Apply","v1",""],["Update","v1","status"]]';
    await insert(1, 'kubectl', [1, 50], apply);
    await insert(1, 'kube-controller-manager', [1, 50], both, 2);
    await insert(1, 'kubectl', [51, 60], null, 4, 'd'); // an earlier version's row: no identities
    await insert(2, 'kubectl', [1, 5], apply); // another generation
    await expectTotalsToMatchTheIndex();
    // Upserts over existing rows (the projection's ON CONFLICT DO UPDATE), some changing identities and counts, some not.
    await insert(1, 'kubectl', [20, 70], both, 5);
    await insert(1, 'kube-controller-manager', [1, 10], both, 2); // unchanged: its parts cancel out
    await ds.query(`UPDATE manager_objects SET identities = NULL, identity_field_count = NULL WHERE object_id IN ('3', '4')`);
    await expectTotalsToMatchTheIndex();
    // Deletes: a manager gone from some objects, a whole generation dropped (as `dropAllBut` does), in a data-modifying CTE too.
    await ds.query(`WITH gone AS (DELETE FROM manager_objects WHERE generation = 1 AND manager = 'kubectl' AND object_id::int % 3 = 0) SELECT 1`);
    await ds.query(`DELETE FROM manager_objects WHERE generation = 2`);
    await expectTotalsToMatchTheIndex();
    const parts = Number((await ds.query(`SELECT count(*) AS n FROM manager_totals`))[0].n);

    const r = await new ManagerTotalsCompaction(ds).run();
    expect(r.folded).toBeGreaterThan(r.kept);
    const [{ n, keys }] = await ds.query(
      `SELECT count(*)::integer AS n, count(DISTINCT (generation, cluster, manager, identities))::integer AS keys FROM manager_totals`,
    );
    expect(n).toBeLessThan(parts);
    expect(n).toBe(keys); // one row per key; the keys whose sums are zero (generation 2) are gone
    expect(await ds.query(`SELECT 1 FROM manager_totals WHERE generation = 2`)).toEqual([]);
    await expectTotalsToMatchTheIndex();
    expect(await new ManagerTotalsCompaction(ds).run()).toEqual({ folded: 0, kept: 0 });
  });

  it('counts a batch committed while a compaction runs exactly once', async () => {
    await insert(3, 'flux', [1, 20], '[["Apply","v1",""]]');
    await insert(3, 'flux', [10, 30], '[["Apply","v1",""]]', 7);
    const batch = ds.createQueryRunner();
    try {
      await batch.startTransaction();
      await batch.query(
        `INSERT INTO manager_objects (generation, manager, object_id, cluster, kind, namespace, field_count, identities, identity_field_count)
         SELECT 3, 'flux', i::text, 'c', 'ConfigMap', 'default', 1, '[["Apply","v1",""]]', 1 FROM generate_series(31, 40) AS i`,
      );
      await new ManagerTotalsCompaction(ds).run(); // does not see the open batch's parts
      await batch.commitTransaction();
    } finally {
      await batch.release();
    }
    await expectTotalsToMatchTheIndex();
    // Two at once (not forced to overlap; the lock serializes them when they do).
    await Promise.all([new ManagerTotalsCompaction(ds).run(), new ManagerTotalsCompaction(ds).run()]);
    await expectTotalsToMatchTheIndex();
  });

  it('a rebuild drops a retired generation\'s totals after a compaction that folded them commits, so the number it reuses starts from nothing', async () => {
    const generations = new ProjectionGenerationsRepository(ds);
    const active = await generations.active();
    const retired = active + 1;
    await insert(retired, 'left-behind', [1, 10], '[["Apply","v1",""]]'); // a rebuild that crashed
    // A compaction in flight: it holds the lock and has folded the retired generation's parts into a row of its own.
    const compaction = ds.createQueryRunner();
    let dropped = false;
    try {
      await compaction.startTransaction();
      await compaction.query(`SELECT pg_advisory_xact_lock($1)`, [MANAGER_TOTALS_LOCK]);
      await compaction.query(`DELETE FROM manager_totals WHERE generation = $1`, [retired]);
      await compaction.query(`INSERT INTO manager_totals (generation, cluster, manager, identities, objects, fields) VALUES ($1, 'c', 'left-behind', '[["Apply","v1",""]]', 10, 40)`, [retired]);
      const rebuild = generations.beginRebuild().then((n) => ((dropped = true), n));
      await new Promise((r) => setTimeout(r, 500));
      expect(dropped).toBe(false); // its totals delete waits for the compaction
      await compaction.commitTransaction();
      expect(await rebuild).toBe(retired);
    } finally {
      await compaction.release();
    }
    expect(await ds.query(`SELECT * FROM manager_totals WHERE generation <> $1`, [active])).toEqual([]);
    await insert(retired, 'left-behind', [1, 4], '[["Apply","v1",""]]');
    await expectTotalsToMatchTheIndex();
    await ds.query(`DELETE FROM manager_objects WHERE generation = $1`, [retired]);
    await ds.query(`UPDATE projection_generations SET building = NULL`);
  });

  it('a TRUNCATE of the index, which fires no DELETE trigger, empties the totals, after a compaction in flight', async () => {
    const saved = await ds.query(`SELECT * FROM manager_objects`);
    const compaction = ds.createQueryRunner();
    try {
      await compaction.startTransaction();
      await compaction.query(`SELECT pg_advisory_xact_lock($1)`, [MANAGER_TOTALS_LOCK]);
      await compaction.query(`DELETE FROM manager_totals WHERE manager = 'kubectl'`);
      await compaction.query(`INSERT INTO manager_totals (generation, cluster, manager, identities, objects, fields) VALUES (1, 'c', 'kubectl', NULL, 7, 7)`);
      const truncated = ds.query(`TRUNCATE manager_objects`);
      await new Promise((r) => setTimeout(r, 300));
      await compaction.commitTransaction();
      await truncated;
    } finally {
      await compaction.release();
    }
    expect(await ds.query(`SELECT * FROM manager_totals`)).toEqual([]);
    await ds.query(
      `INSERT INTO manager_objects SELECT * FROM json_populate_recordset(NULL::manager_objects, $1::json)`,
      [JSON.stringify(saved)],
    );
    await expectTotalsToMatchTheIndex();
  });

  it('the migration sums the stored index rows, and down and up again give the same sums', async () => {
    await new ManagerTotalsCompaction(ds).run();
    const before = (await managerTotalsAndIndexSums(ds)).totals;
    const runner = ds.createQueryRunner();
    try {
      // As the migrations run: each in a transaction.
      await runner.startTransaction();
      await new ManagerTotals1796400000000().down(runner);
      await new ManagerTotals1796400000000().up(runner);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    expect((await managerTotalsAndIndexSums(ds)).totals).toEqual(before);
    await insert(1, 'kubectl', [1, 3], '[["Update","v1",""]]');
    await expectTotalsToMatchTheIndex();
  });
});
