import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER, METRICS, errorCodeOf, isTransientError, type Metrics, type Observation } from '../../../libs/common/src/index.js';
import { DeadLetterRepository, EventAppender, type AppendResult } from '../../../libs/store/src/index.js';
import { parsePayload, ProjectProducer, type QueueProcessor, type ReceivedJob } from '../../../libs/queue/src/index.js';

/**
 * Decodes an ingest job, appends its observations and the watcher checkpoint they end in one
 * transaction, then asks for projection. A batch that fails for a permanent reason on its last try is
 * appended one observation at a time, in order: those that still fail go to the dead letters with
 * their reason, the others are stored, and the lane goes on. Transient failures are thrown (the lane
 * retries them without limit).
 */
@Injectable()
export class IngestProcessor implements QueueProcessor {
  readonly queue = 'ingest' as const;
  readonly handles = ['ingest-observations'] as const;

  constructor(
    @Inject(EventAppender) private readonly appender: EventAppender,
    @Inject(DeadLetterRepository) private readonly deadLetters: DeadLetterRepository,
    @Inject(ProjectProducer) private readonly project: ProjectProducer,
    @Inject(METRICS) private readonly metrics: Metrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async process(job: ReceivedJob): Promise<void> {
    const { observations, checkpoint } = parsePayload('ingest-observations', job.data);
    const stop = this.metrics.ingestBatchSeconds.startTimer();
    let r: AppendResult;
    try {
      r = await this.appender.append(observations, checkpoint);
    } catch (e) {
      if (isTransientError(e) || job.attempt < (job.maxAttempts ?? 1)) throw e;
      r = await this.appendEach(job, observations, e);
      if (checkpoint) await this.appender.append([], checkpoint);
    }
    stop();
    this.metrics.observations.inc({ outcome: 'stored' }, r.stored);
    this.metrics.observations.inc({ outcome: 'unchanged' }, r.unchanged);
    this.metrics.observations.inc({ outcome: 'duplicate' }, r.duplicate);
    for (const lag of r.lagsSeconds) this.metrics.ingestLagSeconds.observe(lag);
    if (r.projection) {
      this.metrics.projectedAtAppend.inc({ outcome: 'folded' }, r.projection.folded);
      this.metrics.projectedAtAppend.inc({ outcome: 'left' }, r.projection.left);
      if (r.projection.error) this.logger.warn({ err: r.projection.error, jobId: job.id, queue: job.queue }, 'folding the batch as it was stored failed: the projector folds its events');
    }
    this.metrics.jobs.inc({ queue: this.queue, outcome: 'done' });
    // Asked for even when everything was a duplicate: a crash may have hit between commit and this line.
    const objects = [...new Map(observations.map((o) => [`${o.cluster}/${o.object.metadata.uid}`, { cluster: o.cluster, uid: o.object.metadata.uid }])).values()];
    if (objects.length > 0) await this.project.enqueue(job.id, objects);
    this.logger.debug({ jobId: job.id, queue: job.queue, stored: r.stored, unchanged: r.unchanged, duplicate: r.duplicate }, 'ingest batch appended');
  }

  /** One transaction per observation, in order; a permanent failure becomes a dead letter. */
  private async appendEach(job: ReceivedJob, observations: readonly Observation[], batchError: unknown): Promise<AppendResult> {
    this.logger.warn({ err: batchError, jobId: job.id, queue: job.queue, observations: observations.length }, 'ingest batch failed for good: storing its observations one by one');
    const total = { stored: 0, unchanged: 0, duplicate: 0, objects: [] as AppendResult['objects'][number][], lagsSeconds: [] as number[], projection: null as AppendResult['projection'] };
    for (const o of observations) {
      try {
        const r = await this.appender.append([o]);
        total.stored += r.stored;
        total.unchanged += r.unchanged;
        total.duplicate += r.duplicate;
        total.objects.push(...r.objects);
        total.lagsSeconds.push(...r.lagsSeconds);
        // What each one's fold did, summed (the first failure's reason kept).
        if (r.projection) {
          const p = total.projection ?? { folded: 0, left: 0, error: null };
          total.projection = { folded: p.folded + r.projection.folded, left: p.left + r.projection.left, error: p.error ?? r.projection.error };
        }
      } catch (e) {
        if (isTransientError(e)) throw e;
        const m = o.object.metadata;
        const reason = e instanceof Error ? e.message : String(e);
        const code = errorCodeOf(e);
        const recorded = await this.deadLetters.record([{ observation: o, reason, errorCode: code, jobId: job.id }]);
        if (recorded > 0) this.metrics.deadLetters.inc(recorded);
        this.logger.error(
          { err: e, jobId: job.id, queue: job.queue, cluster: o.cluster, uid: m.uid, namespace: m.namespace, name: m.name, resourceVersion: m.resourceVersion, code },
          'observation can never be stored: recorded as a dead letter',
        );
      }
    }
    return total;
  }
}

