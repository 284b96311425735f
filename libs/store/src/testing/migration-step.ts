import type { DataSource, QueryRunner } from 'typeorm';

/** Runs one migration step (`up` or `down`, or any query runner work) on a query runner of its own, released after. */
export async function runMigrationStep(ds: DataSource, step: (q: QueryRunner) => Promise<void>): Promise<void> {
  const q = ds.createQueryRunner();
  try {
    await step(q);
  } finally {
    await q.release();
  }
}
