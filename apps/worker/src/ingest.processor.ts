import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER, METRICS, type Metrics } from '../../../libs/common/src/index.js';
import { EventAppender } from '../../../libs/store/src/index.js';
import { parsePayload, ProjectProducer, type QueueProcessor, type ReceivedJob } from '../../../libs/queue/src/index.js';

/** Decodes an ingest job, appends its observations in one transaction, then asks for projection. */
@Injectable()
export class IngestProcessor implements QueueProcessor {
  readonly queue = 'ingest' as const;
  readonly handles = ['ingest-observations'] as const;

  constructor(
    @Inject(EventAppender) private readonly appender: EventAppender,
    @Inject(ProjectProducer) private readonly project: ProjectProducer,
    @Inject(METRICS) private readonly metrics: Metrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async process(job: ReceivedJob): Promise<void> {
    const { observations } = parsePayload('ingest-observations', job.data);
    const stop = this.metrics.ingestBatchSeconds.startTimer();
    const r = await this.appender.append(observations);
    stop();
    this.metrics.observations.inc({ outcome: 'stored' }, r.stored);
    this.metrics.observations.inc({ outcome: 'unchanged' }, r.unchanged);
    this.metrics.observations.inc({ outcome: 'duplicate' }, r.duplicate);
    for (const lag of r.lagsSeconds) this.metrics.ingestLagSeconds.observe(lag);
    this.metrics.jobs.inc({ queue: this.queue, outcome: 'done' });
    // Asked for even when everything was a duplicate: a crash may have hit between commit and this line.
    const objects = [...new Map(observations.map((o) => [`${o.cluster}/${o.object.metadata.uid}`, { cluster: o.cluster, uid: o.object.metadata.uid }])).values()];
    await this.project.enqueue(job.id, objects);
    this.logger.debug({ jobId: job.id, queue: job.queue, stored: r.stored, unchanged: r.unchanged, duplicate: r.duplicate }, 'ingest batch appended');
  }
}
