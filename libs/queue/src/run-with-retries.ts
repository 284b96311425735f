import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { isTransientError } from '../../common/src/index.js';
import { InvalidJobPayloadError } from './job-payload.schema.js';
import type { QueueProcessor, ReceivedJob } from './queue-driver.types.js';

/** A lane that has failed transiently this many times in a row is reported stuck (metric, log, readiness). */
export const STUCK_AFTER_ATTEMPTS = 3;
const TRANSIENT_DELAY_MAX_MS = 5_000;
const PERMANENT_DELAY_MAX_MS = 30_000;

/** What a lane's retry loop reports: stuck on a transient failure, and going again. */
export interface LaneHealthListener {
  stuck(lane: string, error: unknown, attempts: number): void;
  recovered(lane: string): void;
}

/** Thrown when the driver stops while a job waits for its next try: the job is abandoned, never failed. */
export class JobAbandonedError extends Error {
  readonly code = 'JOB_ABANDONED' as const;
  constructor(readonly jobId: string) {
    super(`job ${jobId} abandoned: the worker is stopping`);
    this.name = 'JobAbandonedError';
  }
}

/**
 * Runs a job, retrying in place (the job keeps its place at the head of its lane, so later jobs for
 * the same objects never overtake it). A transient failure (the database or Redis unreachable,
 * restarting or failing over; see isTransientError) is retried without limit, with backoff: a lane
 * waits rather than skips. Any other failure is retried up to `attempts` tries, then thrown; invalid
 * payloads are not retried. When `signal` aborts between tries, throws {@link JobAbandonedError}.
 */
export async function runWithRetries(
  processor: QueueProcessor,
  job: ReceivedJob,
  attempts: number,
  logger: Logger,
  options: { signal?: AbortSignal; health?: LaneHealthListener } = {},
): Promise<unknown> {
  let transientInARow = 0;
  for (let attempt = job.attempt; ; attempt++) {
    try {
      const result = await processor.process({ ...job, attempt, maxAttempts: attempts });
      if (transientInARow >= STUCK_AFTER_ATTEMPTS) {
        logger.info({ jobId: job.id, queue: job.queue, attempts: attempt }, 'lane going again');
        options.health?.recovered(job.queue);
      }
      return result;
    } catch (err) {
      if (err instanceof InvalidJobPayloadError) throw err;
      const transient = isTransientError(err);
      transientInARow = transient ? transientInARow + 1 : 0;
      if (!transient && attempt >= attempts) throw err;
      if (transientInARow === STUCK_AFTER_ATTEMPTS) logger.error({ err, jobId: job.id, queue: job.queue, attempt }, 'lane stuck: a transient failure persists; retrying without limit');
      else logger.warn({ err, jobId: job.id, queue: job.queue, attempt, transient }, 'job failed, retrying');
      // Reported at every try while stuck, so a report outlives no worker that stopped retrying.
      if (transientInARow >= STUCK_AFTER_ATTEMPTS) options.health?.stuck(job.queue, err, attempt);
      const cap = transient ? TRANSIENT_DELAY_MAX_MS : PERMANENT_DELAY_MAX_MS;
      const delay = Math.min(cap, 200 * 2 ** Math.min(attempt, 10)) * (0.75 + Math.random() * 0.5);
      await sleep(delay, undefined, options.signal ? { signal: options.signal } : {}).catch(() => undefined);
      if (options.signal?.aborted) throw new JobAbandonedError(job.id);
    }
  }
}

