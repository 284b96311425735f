import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER, METRICS, type Metrics } from '../../../libs/common/src/index.js';
import { OwnershipProjector, type ReplayProgress } from '../../../libs/audit/src/index.js';
import { parsePayload, ProjectProducer, type QueueProcessor, type ReceivedJob, type ReplayResult } from '../../../libs/queue/src/index.js';

/** How often a running replay logs its progress. */
const PROGRESS_LOG_EVERY_MS = 5000;
/**
 * Committed events held back behind an older open transaction (possibly in another database of the
 * server: xids are server-wide) are waited for this long, then a follow-up job is enqueued, so they
 * are folded once it commits even if no more ingest comes.
 */
const HELD_BACK_WAIT_MS = 5000;

/**
 * The project queue: `project-events` folds the log from the ownership checkpoint (never past a late
 * commit); `replay-projections` rebuilds projections. One lane, so replays and the live projector never interleave.
 */
@Injectable()
export class ProjectProcessor implements QueueProcessor {
  readonly queue = 'project' as const;
  readonly handles = ['project-events', 'replay-projections'] as const;

  constructor(
    @Inject(OwnershipProjector) private readonly projector: OwnershipProjector,
    @Inject(ProjectProducer) private readonly producer: ProjectProducer,
    @Inject(METRICS) private readonly metrics: Metrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async process(job: ReceivedJob): Promise<ReplayResult | void> {
    if (job.name === 'replay-projections') return this.replay(job);
    parsePayload('project-events', job.data);
    let logged = Date.now();
    const r = await this.projector.catchUp({
      waitForHeldBackMs: HELD_BACK_WAIT_MS,
      onReproject: (done, total) => {
        if (Date.now() - logged < PROGRESS_LOG_EVERY_MS) return;
        logged = Date.now();
        this.logger.info({ jobId: job.id, done, total }, 'projecting objects again with their new schema');
      },
      onPage: (page) => {
        if (page.lastEvent) this.metrics.lastProjectedEventAtMs = page.lastEvent.observedAt.getTime();
      },
    });
    if (r.reprojected > 0) this.logger.info({ jobId: job.id, objects: r.reprojected }, 'objects projected again: the schema of their kind changed');
    if (r.reordered > 0) this.logger.info({ jobId: job.id, objects: r.reordered }, 'objects projected again from all their events: the log gave them out of seq order');
    this.metrics.projectedEvents.inc(r.events);
    this.metrics.projectionLagEvents.set(r.heldBack);
    if (r.heldBack > 0) {
      await this.producer.enqueue(`held-${r.position.xid}-${r.position.seq}-${Date.now()}`, []);
      this.logger.info({ jobId: job.id, heldBack: r.heldBack, position: r.position }, 'events held back behind an open transaction; projection continues in a follow-up job');
    }
    this.metrics.jobs.inc({ queue: this.queue, outcome: 'done' });
    this.logger.debug({ jobId: job.id, events: r.events, transitions: r.transitions, position: r.position, generation: r.generation }, 'ownership projection caught up');
  }

  /** Resolves to the job's result (read back by `GET /v1/replays/{jobId}`). */
  private async replay(job: ReceivedJob): Promise<ReplayResult> {
    const { scope } = parsePayload('replay-projections', job.data);
    const started = Date.now();
    let lastLog = started;
    const report = async (p: ReplayProgress) => {
      this.metrics.replayProgressPercent.set({ scope: scope.kind }, p.percent);
      await job.reportProgress?.({ ...p });
      if (Date.now() - lastLog >= PROGRESS_LOG_EVERY_MS) {
        lastLog = Date.now();
        this.logger.info({ jobId: job.id, ...p, scope }, 'replay in progress');
      }
    };
    this.logger.info({ jobId: job.id, scope }, 'replay started');
    const done = await this.projector.replay(scope, report);
    await report(done);
    this.metrics.projectionLagEvents.set(await this.projector.lag());
    this.metrics.jobs.inc({ queue: this.queue, outcome: 'done' });
    const seconds = (Date.now() - started) / 1000;
    this.logger.info({ jobId: job.id, ...done, scope, seconds }, 'replay done');
    return { events: done.events, objects: done.objects, seconds };
  }
}
