import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../../libs/config/src/index.js';
import { CLOCK, LOGGER, type Clock } from '../../../libs/common/src/index.js';
import { ManagerCheckpoints, ManagerTotalsCompaction, PartitionMaintenance, TableStatistics } from '../../../libs/store/src/index.js';
import { parsePayload, type QueueProcessor, type ReceivedJob } from '../../../libs/queue/src/index.js';

/**
 * Creates event partitions ahead and applies the retention; keeps the tables' planner statistics in
 * step with their growth; folds the manager totals' parts and builds the manager index's
 * checkpoints (`compact-manager-totals`: both fold what the index holds into sums).
 */
@Injectable()
export class MaintenanceProcessor implements QueueProcessor {
  readonly queue = 'maintenance' as const;
  readonly handles = ['maintain-partitions', 'refresh-statistics', 'compact-manager-totals'] as const;

  constructor(
    @Inject(PartitionMaintenance) private readonly maintenance: PartitionMaintenance,
    @Inject(TableStatistics) private readonly statistics: TableStatistics,
    @Inject(ManagerTotalsCompaction) private readonly totals: ManagerTotalsCompaction,
    @Inject(ManagerCheckpoints) private readonly checkpoints: ManagerCheckpoints,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async process(job: ReceivedJob): Promise<void> {
    if (job.name === 'refresh-statistics') {
      parsePayload('refresh-statistics', job.data);
      const { attempted } = await this.statistics.refresh();
      if (attempted.length > 0) this.logger.debug({ jobId: job.id, analyzed: attempted }, 'table statistics refreshed');
      return;
    }
    if (job.name === 'compact-manager-totals') {
      parsePayload('compact-manager-totals', job.data);
      const r = await this.totals.run();
      if (r.folded > 0) this.logger.debug({ jobId: job.id, ...r }, 'manager totals compacted');
      const c = await this.checkpoints.run();
      if (c.built.length + c.times.length > 0) this.logger.debug({ jobId: job.id, built: c.built, times: c.times, rows: c.rows }, 'manager index checkpoints built');
      return;
    }
    const { reason } = parsePayload('maintain-partitions', job.data);
    const r = await this.maintenance.run(this.clock.now(), this.config.retention.partitionsAhead, this.config.retention.days);
    if (r.created.length + r.dropped.length > 0 || reason !== 'schedule') {
      this.logger.info({ jobId: job.id, reason, ...r }, 'event partitions maintained');
    }
  }
}
