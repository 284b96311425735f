import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/src/index.js';
import { LOGGER } from '../../common/src/index.js';
import { migrate, openDatabase, type Database } from './database/database.js';
import { EventReader } from './events/event-reader.js';
import { CheckpointRepository } from './events/checkpoint.repository.js';
import { PartitionMaintenance } from './maintenance/partition-maintenance.js';
import { TableStatistics } from './maintenance/table-statistics.js';
import { ManagerTotalsCompaction } from './maintenance/manager-totals-compaction.js';
import { ManagerCheckpoints } from './maintenance/manager-checkpoints.js';
import { OwnershipQueries } from './projections/ownership-queries.js';
import { LiveObjectsRepository } from './watch/live-objects.repository.js';
import { ApiSchemaRepository } from './schemas/api-schema.repository.js';
import { StoredSchemaCatalog } from './schemas/stored-schema-catalog.js';
import { DeadLetterRepository } from './dead-letters/dead-letter.repository.js';
import { WatchPositionRepository } from './watch/watch-position.repository.js';

/** Injection token of the open {@link Database} (its write and read pools). */
export const DATABASE = Symbol('DATABASE');

// Writers on the write pool, readers on the read pool (one and the same when embedded).
const ds = (db: Database) => db.dataSource;
const rds = (db: Database) => db.readDataSource;

/** Migrates and creates the event partitions ahead (what `npm run migrate` does). */
export async function prepareSchema(db: Database, config: AppConfig, now = new Date()): Promise<string[]> {
  const applied = await migrate(db.dataSource);
  await new PartitionMaintenance(db.dataSource).run(now, config.retention.partitionsAhead, config.retention.days);
  return applied;
}

/**
 * The event store: opens the database (Postgres or embedded PGlite) and provides its repositories.
 * The use cases over them are built by the roles that run them (the worker builds its appender's fold and its projector).
 */
@Global()
@Module({
  providers: [
    // The worker's appends and projector fold with one catalog: each OpenAPI document is converted once per process.
    { provide: StoredSchemaCatalog, useFactory: (db: Database) => new StoredSchemaCatalog(ds(db)), inject: [DATABASE] },
    { provide: EventReader, useFactory: (db: Database) => new EventReader(rds(db)), inject: [DATABASE] },
    { provide: CheckpointRepository, useFactory: (db: Database) => new CheckpointRepository(ds(db)), inject: [DATABASE] },
    { provide: PartitionMaintenance, useFactory: (db: Database) => new PartitionMaintenance(ds(db)), inject: [DATABASE] },
    { provide: TableStatistics, useFactory: (db: Database) => new TableStatistics(ds(db)), inject: [DATABASE] },
    { provide: ManagerTotalsCompaction, useFactory: (db: Database) => new ManagerTotalsCompaction(ds(db)), inject: [DATABASE] },
    { provide: ManagerCheckpoints, useFactory: (db: Database) => new ManagerCheckpoints(ds(db)), inject: [DATABASE] },
    { provide: OwnershipQueries, useFactory: (db: Database) => new OwnershipQueries(rds(db)), inject: [DATABASE] },
    { provide: LiveObjectsRepository, useFactory: (db: Database) => new LiveObjectsRepository(rds(db)), inject: [DATABASE] },
    { provide: ApiSchemaRepository, useFactory: (db: Database) => new ApiSchemaRepository(ds(db)), inject: [DATABASE] },
    { provide: DeadLetterRepository, useFactory: (db: Database) => new DeadLetterRepository(ds(db)), inject: [DATABASE] },
    { provide: WatchPositionRepository, useFactory: (db: Database) => new WatchPositionRepository(ds(db)), inject: [DATABASE] },
  ],
  exports: [DATABASE, StoredSchemaCatalog, EventReader, CheckpointRepository, PartitionMaintenance, TableStatistics, ManagerTotalsCompaction, ManagerCheckpoints, OwnershipQueries, LiveObjectsRepository, ApiSchemaRepository, DeadLetterRepository, WatchPositionRepository],
})
export class StoreModule implements OnApplicationShutdown {
  /** `migrateOnStart`: run pending migrations and create the event partitions before anything uses the database. */
  static forRoot(options: { migrateOnStart: boolean }): DynamicModule {
    return {
      module: StoreModule,
      providers: [
        {
          provide: DATABASE,
          inject: [APP_CONFIG],
          useFactory: async (config: AppConfig) => {
            const db = await openDatabase(config.database);
            if (options.migrateOnStart) {
              try {
                await prepareSchema(db, config);
              } catch (e) {
                await db.close();
                throw e;
              }
            }
            return db;
          },
        },
      ],
      exports: [DATABASE],
    };
  }

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  // After every beforeApplicationShutdown hook (the queue stops there), so running jobs can finish.
  async onApplicationShutdown(): Promise<void> {
    const started = Date.now();
    await this.db.close();
    this.logger.info({ ms: Date.now() - started }, 'database closed');
  }
}
