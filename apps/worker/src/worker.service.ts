import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../../../libs/common/src/index.js';
import { APP_CONFIG, type AppConfig } from '../../../libs/config/src/index.js';
import { QUEUE_DRIVER, type QueueDriver } from '../../../libs/queue/src/index.js';
import { IngestProcessor } from './ingest.processor.js';
import { MaintenanceProcessor } from './maintenance.processor.js';
import { ProjectProcessor } from './project.processor.js';
import { SchemaProcessor } from './schema.processor.js';

const MAINTENANCE_EVERY_MS = 6 * 3600_000;
/** Often enough that a table listed from empty is planned with statistics within seconds (`TableStatistics`). */
const STATISTICS_EVERY_MS = 5_000;
/** The manager totals' parts: a few per projection batch, folded so that `GET /v1/managers` reads a few rows per manager. */
const TOTALS_EVERY_MS = 10_000;

/** Starts consuming every queue once the application is up; fails start-up if a job has no handler. */
@Injectable()
export class WorkerService implements OnApplicationBootstrap {
  constructor(
    @Inject(QUEUE_DRIVER) private readonly driver: QueueDriver,
    @Inject(IngestProcessor) private readonly ingest: IngestProcessor,
    @Inject(ProjectProcessor) private readonly project: ProjectProcessor,
    @Inject(MaintenanceProcessor) private readonly maintenance: MaintenanceProcessor,
    @Inject(SchemaProcessor) private readonly schemas: SchemaProcessor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.driver.consume([this.ingest, this.project, this.maintenance, this.schemas]);
    await this.driver.schedule('maintenance', { name: 'maintain-partitions', data: { reason: 'schedule' } }, MAINTENANCE_EVERY_MS);
    await this.driver.schedule('maintenance', { name: 'compact-manager-totals', data: { reason: 'schedule' } }, TOTALS_EVERY_MS);
    // Not in the embedded all-in-one: its databases are small. (It was first left out because that
    // process then sometimes did not stop within 25 s on SIGTERM; the hang reproduced without it was
    // the watcher's, a stop during a discovery, and is fixed. Turning it on there is not measured.)
    if (this.config.database.kind !== 'embedded') {
      await this.driver.schedule('maintenance', { name: 'refresh-statistics', data: { reason: 'schedule' } }, STATISTICS_EVERY_MS);
    }
    this.logger.info({ driver: this.driver.kind }, 'worker consuming ingest, project, maintenance and schemas');
  }
}
