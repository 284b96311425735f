import { Module } from '@nestjs/common';
import { AppendTimeProjection, OwnershipProjector } from '../../../libs/audit/src/index.js';
import { APP_CONFIG, type AppConfig } from '../../../libs/config/src/index.js';
import { DATABASE, EventAppender, PostgresProjectionLog, PostgresProjectionTables, StoredSchemaCatalog, type Database } from '../../../libs/store/src/index.js';
import { IngestProcessor } from './ingest.processor.js';
import { MaintenanceProcessor } from './maintenance.processor.js';
import { ProjectProcessor } from './project.processor.js';
import { SchemaProcessor } from './schema.processor.js';
import { WorkerService } from './worker.service.js';

/**
 * The worker role: one processor per queue. Needs the global config, observability, store and queue
 * modules. Its two use cases are built here, over the store's adapters: the appender's fold
 * (`AppendTimeProjection`) and the log walk (`OwnershipProjector`), both on the one schema catalog.
 */
@Module({
  providers: [
    {
      provide: EventAppender,
      useFactory: (db: Database, c: AppConfig, schemas: StoredSchemaCatalog) => new EventAppender(db.dataSource, c.capture, new AppendTimeProjection(schemas)),
      inject: [DATABASE, APP_CONFIG, StoredSchemaCatalog],
    },
    {
      provide: OwnershipProjector,
      useFactory: (db: Database, schemas: StoredSchemaCatalog) => new OwnershipProjector(new PostgresProjectionLog(db.dataSource), new PostgresProjectionTables(db.dataSource), schemas),
      inject: [DATABASE, StoredSchemaCatalog],
    },
    IngestProcessor,
    ProjectProcessor,
    MaintenanceProcessor,
    SchemaProcessor,
    WorkerService,
  ],
})
export class WorkerModule {}
