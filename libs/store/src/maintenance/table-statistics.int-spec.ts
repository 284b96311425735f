import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import { TableStatistics } from './table-statistics.js';

describe('TableStatistics (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const changedSinceAnalyze = async (table: string) =>
    Number((await ds.query(`SELECT n_mod_since_analyze AS n FROM pg_stat_user_tables WHERE relname = $1`, [table]))[0].n);
  const estimatedRows = async () => {
    const [row] = await ds.query(`EXPLAIN (FORMAT JSON) SELECT * FROM manager_objects WHERE generation = 1`);
    return (row['QUERY PLAN'] as { Plan: { 'Plan Rows': number } }[])[0]!.Plan['Plan Rows'];
  };

  beforeAll(async () => {
    db = await createTestDatabase('table_statistics');
    ds = await createDataSource(db.url, 2).initialize();
    // Only this refresh analyzes the table under test.
    await ds.query(`ALTER TABLE manager_objects SET (autovacuum_enabled = false)`);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('analyzes a table that grew from empty, so queries are planned for its size, and leaves it until it grows by half again', async () => {
    const insert = async (from: number, to: number) => {
      const q = ds.createQueryRunner();
      try {
        await q.query(
          `INSERT INTO manager_objects (generation, manager, object_id, cluster, kind, namespace, field_count)
           SELECT 1, 'kubectl', i::text, 'c', 'ConfigMap', 'default', 3 FROM generate_series($1::int, $2::int) AS i`,
          [from, to],
        );
        // The inserting session reports its counts when it goes idle; make that the next time.
        await q.query(`SELECT pg_stat_force_next_flush()`);
      } finally {
        await q.release();
      }
    };
    const reported = async (table: string, atLeast: number) => {
      for (let i = 0; i < 100 && (await changedSinceAnalyze(table)) < atLeast; i++) await new Promise((r) => setTimeout(r, 100));
    };

    await insert(1, 3_000);
    await reported('manager_objects', 3_000);
    const unplanned = await estimatedRows();
    const statistics = new TableStatistics(ds);
    expect((await statistics.refresh()).attempted).toContain('manager_objects');
    expect(await changedSinceAnalyze('manager_objects')).toBe(0);
    // Without statistics Postgres guessed a small share of the rows (0.5 % per equality); now all 3,000.
    expect(unplanned).toBeLessThan(1_000);
    expect(await estimatedRows()).toBe(3_000);

    // 2,000 more is under 1,000 + half of 3,000 changed rows: not yet; 500 more reaches it.
    await insert(3_001, 5_000);
    await reported('manager_objects', 2_000);
    expect((await statistics.refresh()).attempted).not.toContain('manager_objects');
    await insert(5_001, 5_500);
    await reported('manager_objects', 2_500);
    expect((await statistics.refresh()).attempted).toContain('manager_objects');
    expect(await estimatedRows()).toBe(5_500);
  });
});
