import type { DataSource } from 'typeorm';
import { AppendTimeProjection, OwnershipProjector, type SchemaCatalogSource } from '../../../audit/src/index.js';
import type { CaptureConfig } from '../../../config/src/index.js';
import { EventAppender } from '../events/event-appender.js';
import { PostgresProjectionLog } from '../events/postgres-projection-log.js';
import { PostgresProjectionTables } from '../projections/postgres-projection-tables.js';
import { StoredSchemaCatalog } from '../schemas/stored-schema-catalog.js';

/**
 * For tests and benchmarks: the worker's two use cases over this store's adapters, as the worker
 * module builds them (there, both share one schema catalog; here each builds its own unless given one).
 */
export const projectorOn = (ds: DataSource, options: { schemas?: SchemaCatalogSource; pageSize?: number; pageBodyBytes?: number } = {}): OwnershipProjector =>
  new OwnershipProjector(new PostgresProjectionLog(ds), new PostgresProjectionTables(ds), options.schemas ?? new StoredSchemaCatalog(ds), options.pageSize, options.pageBodyBytes);

/** An appender that folds what it stores, as the worker's does. */
export const foldingAppender = (ds: DataSource, capture: CaptureConfig, schemas: SchemaCatalogSource = new StoredSchemaCatalog(ds)): EventAppender =>
  new EventAppender(ds, capture, new AppendTimeProjection(schemas));
