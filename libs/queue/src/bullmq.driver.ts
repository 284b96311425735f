import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { assertHandlers } from './assert-handlers.js';
import { JobAbandonedError, runWithRetries, type LaneHealthListener } from './run-with-retries.js';
import { QUEUE_NAMES, physicalQueues, type JobName, type QueueName } from './queue.constants.js';
import type { JobRequest, JobState, JobStatus, QueueDriver, QueueProcessor, StuckLane } from './queue-driver.types.js';
import type { QueueHealthListener } from './queue-health.listener.js';

export interface BullMqOptions {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly ingestShards: number;
  readonly attempts: number;
  readonly lockDurationMs: number;
  /** How often the queue's epoch marker is checked (a lost queue is detected within this). */
  readonly epochCheckMs?: number;
  /** A graceful close waits this long for running jobs, then leaves them to be handed over. */
  readonly closeTimeoutMs?: number;
}

/** A stuck-lane report lives this long unless the retrying worker renews it (a dead worker's report expires). */
const STUCK_REPORT_TTL_S = 30;

/**
 * BullMQ on Redis. Every physical queue runs with a global concurrency of 1 across all workers, so
 * jobs of one lane (an ingest shard) are handled in order; workers on several machines share the lanes.
 * Retries happen in place (see runWithRetries); a worker that dies leaves its job stalled, and BullMQ
 * puts a stalled job back at the head of its lane once its lock expires.
 */
export class BullMqQueueDriver implements QueueDriver {
  readonly kind = 'bullmq' as const;
  private readonly connection: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private workerConnections: Redis[] = [];
  /** Lanes this process consumes and the schedules it made: what it restores when the queue was lost. */
  private readonly consumedLanes: string[] = [];
  private readonly schedules: { queue: QueueName; request: Omit<JobRequest, 'id'>; everyMs: number }[] = [];
  private readonly lostListeners = new Set<(reason: string) => void>();
  private readonly closing = new AbortController();
  private epoch: string | undefined;
  private epochCheck: Promise<void> | undefined;
  private epochTimer: NodeJS.Timeout | undefined;
  private readonly health: LaneHealthListener;

  constructor(
    private readonly options: BullMqOptions,
    private readonly logger: Logger,
    private readonly listener: QueueHealthListener = {},
  ) {
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
    this.connection.on('error', (err) => this.logger.warn({ err }, 'redis connection error'));
    this.health = {
      stuck: (lane, error, attempts) => {
        this.listener.laneStuck?.(lane, true);
        const report = JSON.stringify({ since: new Date().toISOString(), error: error instanceof Error ? error.message : String(error), attempts });
        // Renewed on every further failure (each try reports again after the first): see the loop below.
        void this.connection.set(this.stuckKey(lane), report, 'EX', STUCK_REPORT_TTL_S, 'NX').catch(() => undefined);
        void this.connection.expire(this.stuckKey(lane), STUCK_REPORT_TTL_S).catch(() => undefined);
      },
      recovered: (lane) => {
        this.listener.laneStuck?.(lane, false);
        void this.connection.del(this.stuckKey(lane)).catch(() => undefined);
      },
    };
  }

  private stuckKey(lane: string): string {
    return `${this.options.prefix}:lane-stuck:${lane}`;
  }

  private get epochKey(): string {
    return `${this.options.prefix}:epoch`;
  }

  /**
   * The queue's epoch marker: a random id written once into Redis and remembered. Redis restarted
   * empty, flushed, or a failover to a replica that never saw it: the marker is gone or different,
   * so jobs may have been lost. The driver then restores what it keeps in Redis itself (lane
   * concurrency, schedules), adopts a new marker, and tells the listeners (the watcher relists).
   */
  private checkEpoch(): Promise<void> {
    this.epochCheck ??= (async () => {
      const current = await this.connection.get(this.epochKey);
      if (current !== null && current === this.epoch) return;
      if (current === null) await this.connection.set(this.epochKey, randomUUID(), 'NX');
      const adopted = current ?? (await this.connection.get(this.epochKey)) ?? undefined;
      const lost = this.epoch !== undefined;
      this.epoch = adopted;
      if (!lost) return;
      const reason = current === null ? 'the epoch marker is gone (Redis restarted empty or was flushed)' : 'the epoch marker changed (a failover, or another process found the queue lost first)';
      this.logger.error({ reason, prefix: this.options.prefix }, 'queue state lost: restoring lane concurrency and schedules; the watcher relists');
      this.listener.queueLost?.();
      await this.restore();
      for (const l of this.lostListeners) l(reason);
    })().finally(() => (this.epochCheck = undefined));
    return this.epochCheck;
  }

  private async restore(): Promise<void> {
    for (const lane of this.consumedLanes) await this.queue(lane).setGlobalConcurrency(1);
    for (const s of this.schedules) await this.upsertSchedule(s.queue, s.request, s.everyMs);
  }

  private startEpochWatch(): void {
    if (this.epochTimer || this.closing.signal.aborted) return;
    const every = this.options.epochCheckMs ?? 1000;
    const tick = () => {
      this.checkEpoch()
        .catch((err: unknown) => this.logger.warn({ err }, 'queue epoch check failed'))
        .finally(() => {
          if (!this.closing.signal.aborted) this.epochTimer = setTimeout(tick, every);
        });
    };
    this.epochTimer = setTimeout(tick, 0);
  }

  onQueueLost(listener: (reason: string) => void): () => void {
    this.lostListeners.add(listener);
    this.startEpochWatch();
    return () => this.lostListeners.delete(listener);
  }

  async stuckLanes(): Promise<StuckLane[]> {
    const lanes = QUEUE_NAMES.flatMap((q) => physicalQueues(q, this.options.ingestShards));
    const values = await this.connection.mget(lanes.map((l) => this.stuckKey(l)));
    const stuck: StuckLane[] = [];
    values.forEach((v, i) => {
      if (v === null) return;
      try {
        const r = JSON.parse(v) as { since?: string; error?: string };
        stuck.push({ lane: lanes[i]!, since: r.since ?? '', error: r.error ?? '' });
      } catch {
        stuck.push({ lane: lanes[i]!, since: '', error: v });
      }
    });
    return stuck;
  }

  async add(queue: QueueName, jobs: readonly JobRequest[]): Promise<void> {
    const byLane = new Map<string, JobRequest[]>();
    for (const j of jobs) {
      const lane = queue === 'ingest' ? `ingest-${j.shard ?? 0}` : queue;
      byLane.set(lane, [...(byLane.get(lane) ?? []), j]);
    }
    await Promise.all(
      [...byLane].map(([lane, list]) =>
        this.queue(lane).addBulk(
          list.map((j) => ({
            name: j.name,
            data: j.data,
            opts: { jobId: j.id, attempts: 1, ...kept(queue) },
          })),
        ),
      ),
    );
  }

  async consume(processors: readonly QueueProcessor[]): Promise<void> {
    assertHandlers(processors, [...new Set(processors.map((p) => p.queue))]);
    await this.checkEpoch();
    this.startEpochWatch();
    for (const p of processors) {
      for (const lane of physicalQueues(p.queue, this.options.ingestShards)) {
        this.consumedLanes.push(lane);
        await this.queue(lane).setGlobalConcurrency(1);
        const connection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
        connection.on('error', (err) => this.logger.warn({ err }, 'redis connection error'));
        this.workerConnections.push(connection);
        const worker = new Worker(
          lane,
          async (job: Job) => {
            // A queue lost since the last check: restore the lane's global concurrency before running.
            // Never fails the job: an unreadable marker is checked again by the timer.
            await this.checkEpoch().catch((err: unknown) => this.logger.warn({ err, queue: lane }, 'queue epoch check failed'));
            try {
              return await runWithRetries(
                p,
                { id: job.id!, name: job.name as JobName, data: job.data, queue: lane, attempt: 1, reportProgress: (progress) => job.updateProgress(progress) },
                this.options.attempts,
                this.logger,
                { signal: this.closing.signal, health: this.health },
              );
            } catch (e) {
              // Stopping while the job waits for its next try: never fail it. It stays active, its lock
              // expires, and BullMQ hands it back to the head of its lane (a stalled job).
              if (e instanceof JobAbandonedError) return new Promise<never>(() => undefined);
              throw e;
            }
          },
          {
            connection,
            prefix: this.options.prefix,
            concurrency: 1,
            lockDuration: this.options.lockDurationMs,
            stalledInterval: Math.max(1000, Math.floor(this.options.lockDurationMs / 2)),
            maxStalledCount: 100,
          },
        );
        worker.on('failed', (job, err) => this.logger.error({ err, jobId: job?.id, queue: lane }, 'job failed for good'));
        worker.on('error', (err) => this.logger.error({ err, queue: lane }, 'queue worker error'));
        this.workers.push(worker);
      }
    }
  }

  async schedule(queue: QueueName, request: Omit<JobRequest, 'id'>, everyMs: number): Promise<void> {
    this.schedules.push({ queue, request, everyMs });
    await this.upsertSchedule(queue, request, everyMs);
  }

  private async upsertSchedule(queue: QueueName, request: Omit<JobRequest, 'id'>, everyMs: number): Promise<void> {
    // Each run is a job of its own: kept as long as any other (a run every few seconds would otherwise pile up in Redis).
    await this.queue(queue).upsertJobScheduler(request.name, { every: everyMs }, { name: request.name, data: request.data, opts: { attempts: 1, ...kept(queue) } });
  }

  async job(queue: QueueName, id: string): Promise<JobStatus | null> {
    for (const lane of physicalQueues(queue, this.options.ingestShards)) {
      const q = this.queue(lane);
      // The job's hash and its state are two reads: read the state before and after the hash, so a
      // job that finished in between is not reported completed with the result it did not have yet.
      for (let tries = 0; ; tries++) {
        const before = await q.getJobState(id);
        if (before === 'unknown') break;
        const job = await q.getJob(id);
        const state = bullState(await q.getJobState(id));
        if (!job || !state) return null; // removed meanwhile
        if (state !== bullState(before) && tries < 3) continue;
        const progress = job.progress;
        return {
          id,
          name: job.name as JobName,
          data: job.data,
          state,
          progress: typeof progress === 'object' && progress !== null ? (progress as Record<string, unknown>) : null,
          result: state === 'completed' ? (job.returnvalue ?? null) : null,
          failedReason: state === 'failed' ? job.failedReason || 'failed' : null,
        };
      }
    }
    return null;
  }

  async pending(queue: QueueName): Promise<number> {
    let n = 0;
    for (const lane of physicalQueues(queue, this.options.ingestShards)) {
      n += await this.queue(lane).getJobCountByTypes('wait', 'active', 'delayed', 'prioritized');
    }
    return n;
  }

  async ping(): Promise<void> {
    const pong = await this.connection.ping();
    if (pong !== 'PONG') throw new Error(`redis answered ${pong}`);
  }

  /**
   * Stops within `closeTimeoutMs`: running jobs get that long to finish; a job still running then (or
   * waiting for its next try) is left active and handed back to its lane when its lock expires.
   */
  async close(): Promise<void> {
    this.closing.abort();
    clearTimeout(this.epochTimer);
    const timeout = this.options.closeTimeoutMs ?? 10_000;
    await Promise.all(
      this.workers.map(async (w) => {
        let timer: NodeJS.Timeout | undefined;
        const graceful = w.close().then(() => true);
        const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), timeout)));
        const done = await Promise.race([graceful, late]);
        clearTimeout(timer);
        if (!done) {
          this.logger.warn({ queue: w.name, timeoutMs: timeout }, 'a job did not finish in time: left to be handed over');
          await w.close(true).catch(() => undefined);
        }
      }),
    );
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await Promise.all([...this.workerConnections, this.connection].map((c) => c.quit().catch(() => undefined)));
    this.workerConnections = [];
  }

  private queue(name: string): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.options.prefix });
      this.queues.set(name, q);
    }
    return q;
  }
}

/** BullMQ's job states as ours: delayed, prioritized and waiting-children jobs are waiting; `null` for unknown. */
function bullState(s: Awaited<ReturnType<Queue['getJobState']>>): JobState | null {
  switch (s) {
    case 'completed':
    case 'failed':
    case 'active':
      return s;
    case 'waiting':
    case 'delayed':
    case 'prioritized':
    case 'waiting-children':
      return 'waiting';
    default:
      return null;
  }
}

/** Deletes every key of a prefix (test clean-up and `bench:ingest`). */
export async function deleteQueueKeys(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** How long Redis keeps a finished job: ingest payloads are large and the store is idempotent, so they go once done; failed jobs stay a week. */
function kept(queue: QueueName) {
  return { removeOnComplete: queue === 'ingest' ? true : { age: 3600, count: 1000 }, removeOnFail: { age: 7 * 86_400 } };
}
