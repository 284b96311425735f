import { DataSource, MigrationExecutor } from 'typeorm';
import type { DatabaseConfig } from '../../../config/src/index.js';
import { migrations } from '../../../../migrations/index.js';
import { runDerivedBackfills } from '../projections/derived-backfills.js';
import { entities } from '../entities/index.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';

/**
 * An open database: two TypeORM data sources and how to close everything behind them.
 * `dataSource` is the writers' pool (ingest, projections, checkpoints, partitions, migrations);
 * `readDataSource` the readers' pool (API queries, event streams), so no read load can take the
 * connections ingest needs. Embedded (PGlite, a single session), both are the same data source.
 */
export interface Database {
  readonly dataSource: DataSource;
  readonly readDataSource: DataSource;
  readonly kind: DatabaseConfig['kind'];
  close(): Promise<void>;
}

// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 7_291_001;

/** Names of the pools in `pg_stat_activity.application_name`. */
export const WRITER_APPLICATION_NAME = 'ssa-audit';
export const READER_APPLICATION_NAME = 'ssa-audit-read';

/**
 * Session settings of the server's connections. `jit=off`: the service's statements are short and
 * run again and again, and their row estimates (arrays unnested, subqueries per row) push some past
 * `jit_above_cost`; the projector's body query then spent about 80 % of its time compiling (9.4 of
 * 11.3 s in a 50,000-object pipeline run). PGlite has no JIT and takes no startup options.
 */
const SERVER_SESSION_OPTIONS = '-c jit=off';

export function createDataSource(url: string, poolSize: number, applicationName = WRITER_APPLICATION_NAME, sessionOptions: string | null = SERVER_SESSION_OPTIONS): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities,
    migrations,
    migrationsTableName: 'typeorm_migrations',
    synchronize: false,
    logging: false,
    extra: { max: poolSize, application_name: applicationName, ...(sessionOptions ? { options: sessionOptions } : {}) },
  });
}

/** Connects to Postgres, or starts the embedded PGlite when no DATABASE_URL is configured. */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.kind === 'postgres') {
    const dataSource = await createDataSource(config.url, config.writePoolSize, WRITER_APPLICATION_NAME).initialize();
    let readDataSource: DataSource;
    try {
      readDataSource = await createDataSource(config.url, config.poolSize, READER_APPLICATION_NAME).initialize();
    } catch (e) {
      await dataSource.destroy();
      throw e;
    }
    return {
      dataSource,
      readDataSource,
      kind: 'postgres',
      close: () => Promise.all([dataSource.destroy(), readDataSource.destroy()]).then(() => undefined),
    };
  }
  const embedded = await startEmbeddedPostgres(config.dataDir);
  try {
    // PGlite is a single session: the socket server would interleave the extended-protocol messages of
    // several connections, so everything goes through one pooled connection.
    const dataSource = await createDataSource(embedded.url, 1, WRITER_APPLICATION_NAME, null).initialize();
    return {
      dataSource,
      readDataSource: dataSource,
      kind: 'embedded',
      async close() {
        await dataSource.destroy();
        await embedded.close();
      },
    };
  } catch (e) {
    await embedded.close();
    throw e;
  }
}

/**
 * Runs pending migrations, then the fills of derived rows from the stored states that have not run
 * (`runDerivedBackfills`); concurrent migrators wait for each other on an advisory lock. Returns
 * the names of the migrations run.
 */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    // On the connection that holds the lock (the embedded database has a single connection).
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'all';
    const done = await executor.executePendingMigrations();
    await runDerivedBackfills(runner);
    return done.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
