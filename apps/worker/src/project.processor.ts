import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER, METRICS, type Metrics } from '../../../libs/common/src/index.js';
import { CheckpointRepository, EventReader } from '../../../libs/store/src/index.js';
import { parsePayload, type QueueProcessor, type ReceivedJob } from '../../../libs/queue/src/index.js';

/** The projection that only follows the log for now; the ownership projections come with the API issue. */
export const EVENT_LOG_TAIL = 'event-log-tail';
const PAGE = 1000;

/** Reads the event log from the checkpoint (never past a late commit) and records how far it got. */
@Injectable()
export class ProjectProcessor implements QueueProcessor {
  readonly queue = 'project' as const;
  readonly handles = ['project-events'] as const;

  constructor(
    @Inject(EventReader) private readonly reader: EventReader,
    @Inject(CheckpointRepository) private readonly checkpoints: CheckpointRepository,
    @Inject(METRICS) private readonly metrics: Metrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async process(job: ReceivedJob): Promise<void> {
    parsePayload('project-events', job.data);
    let position = await this.checkpoints.get(EVENT_LOG_TAIL);
    let read = 0;
    for (;;) {
      const page = await this.reader.readAfter(position, PAGE);
      if (page.length === 0) break;
      const last = page[page.length - 1]!;
      position = { xid: last.xid, seq: last.seq };
      await this.checkpoints.advance(EVENT_LOG_TAIL, position);
      read += page.length;
    }
    this.metrics.jobs.inc({ queue: this.queue, outcome: 'done' });
    this.logger.debug({ jobId: job.id, read, position }, 'projection checkpoint advanced');
  }
}
