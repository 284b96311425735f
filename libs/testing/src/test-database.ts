import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadTestSettings } from '../../config/src/index.js';
import { createDataSource, migrate, PartitionMaintenance } from '../../store/src/index.js';

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

async function admin<T>(f: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: loadTestSettings().adminDatabaseUrl });
  await client.connect();
  try {
    return await f(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database on the machine's Postgres, migrated with the real migrations (and, like `npm run migrate`,
 * with this month's event partitions unless `partitions: false`); `drop()` removes it.
 */
export async function createTestDatabase(label = 'test', options: { partitions?: boolean } = { partitions: true }): Promise<TestDatabase> {
  const name = `ssa_audit_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(loadTestSettings().adminDatabaseUrl);
  url.pathname = `/${name}`;
  const ds = await createDataSource(url.toString(), 2).initialize();
  try {
    await migrate(ds);
    if (options.partitions) await new PartitionMaintenance(ds).run(new Date(), 2, 0);
  } finally {
    await ds.destroy();
  }
  return {
    name,
    url: url.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
