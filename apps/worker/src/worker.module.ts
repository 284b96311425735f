import { Module } from '@nestjs/common';
import { IngestProcessor } from './ingest.processor.js';
import { MaintenanceProcessor } from './maintenance.processor.js';
import { ProjectProcessor } from './project.processor.js';
import { SchemaProcessor } from './schema.processor.js';
import { WorkerService } from './worker.service.js';

/** The worker role: one processor per queue. Needs the global config, observability, store and queue modules. */
@Module({ providers: [IngestProcessor, ProjectProcessor, MaintenanceProcessor, SchemaProcessor, WorkerService] })
export class WorkerModule {}
