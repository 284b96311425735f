import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { assertHandlers } from './assert-handlers.js';
import { runWithRetries } from './run-with-retries.js';
import { physicalQueues, type JobName, type QueueName } from './queue.constants.js';
import type { JobRequest, JobState, JobStatus, QueueDriver, QueueProcessor } from './queue-driver.types.js';

export interface BullMqOptions {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly ingestShards: number;
  readonly attempts: number;
  readonly lockDurationMs: number;
}

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

  constructor(
    private readonly options: BullMqOptions,
    private readonly logger: Logger,
  ) {
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
    this.connection.on('error', (err) => this.logger.warn({ err }, 'redis connection error'));
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
            opts: {
              jobId: j.id,
              attempts: 1,
              // Ingest payloads are large and the store is idempotent: drop them once done. Failed jobs stay a week.
              removeOnComplete: queue === 'ingest' ? true : { age: 3600, count: 1000 },
              removeOnFail: { age: 7 * 86_400 },
            },
          })),
        ),
      ),
    );
  }

  async consume(processors: readonly QueueProcessor[]): Promise<void> {
    assertHandlers(processors, [...new Set(processors.map((p) => p.queue))]);
    for (const p of processors) {
      for (const lane of physicalQueues(p.queue, this.options.ingestShards)) {
        await this.queue(lane).setGlobalConcurrency(1);
        const connection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
        connection.on('error', (err) => this.logger.warn({ err }, 'redis connection error'));
        this.workerConnections.push(connection);
        const worker = new Worker(
          lane,
          (job: Job) =>
            runWithRetries(
              p,
              { id: job.id!, name: job.name as JobName, data: job.data, queue: lane, attempt: 1, reportProgress: (progress) => job.updateProgress(progress) },
              this.options.attempts,
              this.logger,
            ),
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
    await this.queue(queue).upsertJobScheduler(request.name, { every: everyMs }, { name: request.name, data: request.data });
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

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
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

