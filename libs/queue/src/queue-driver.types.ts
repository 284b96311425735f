import type { JobName, QueueName } from './queue.constants.js';

/** A job to enqueue. `id` is deterministic: adding the same id twice while it is known is a no-op. */
export interface JobRequest {
  readonly name: JobName;
  readonly id: string;
  readonly data: unknown;
  /** For the sharded `ingest` queue: the shard (ordered lane) the job belongs to. */
  readonly shard?: number;
}

/** A job as handed to a processor. */
export interface ReceivedJob {
  readonly id: string;
  readonly name: JobName;
  readonly data: unknown;
  readonly queue: string;
  readonly attempt: number;
  /** Tries a non-transient failure gets (transient ones are retried without limit); set by the retry loop. */
  readonly maxAttempts?: number;
  /** Reports progress of a long job (BullMQ's job progress; the in-process driver keeps it on the job). */
  readonly reportProgress?: (progress: Record<string, unknown>) => Promise<void>;
}

/** One processor per logical queue: decodes a job and delegates. */
export interface QueueProcessor {
  readonly queue: QueueName;
  readonly handles: readonly JobName[];
  /** What it resolves to is the job's result (BullMQ's `returnvalue`; plain JSON data). */
  process(job: ReceivedJob): Promise<unknown>;
}

/** Where a job is: waiting (also delayed or prioritized), running, done, or failed for good. */
export type JobState = 'waiting' | 'active' | 'completed' | 'failed';

/** A job as the queue knows it, for status reads. */
export interface JobStatus {
  readonly id: string;
  readonly name: JobName;
  readonly data: unknown;
  readonly state: JobState;
  /** The last progress the processor reported, `null` before any. */
  readonly progress: Record<string, unknown> | null;
  /** What the processor resolved to, once completed; `null` otherwise. */
  readonly result: unknown;
  /** Why it failed for good; `null` unless failed. */
  readonly failedReason: string | null;
}

/** A lane retrying a transient failure, as reported by the worker running it. */
export interface StuckLane {
  readonly lane: string;
  readonly since: string;
  readonly error: string;
}

/** The small interface both transports implement: BullMQ on Redis, or in-process. */
export interface QueueDriver {
  readonly kind: 'bullmq' | 'in-process';
  add(queue: QueueName, jobs: readonly JobRequest[]): Promise<void>;
  /** Starts consuming the queues of these processors (checked with {@link assertHandlers} first). */
  consume(processors: readonly QueueProcessor[]): Promise<void>;
  /** Enqueues `request` now and then every `everyMs` (one schedule per job name, across processes). */
  schedule(queue: QueueName, request: Omit<JobRequest, 'id'>, everyMs: number): Promise<void>;
  /**
   * A job of `queue` by id, or `null` when unknown: never added, or already dropped (completed ingest
   * jobs at once; other completed jobs after an hour or beyond the last 1000; failed ones after a week).
   */
  job(queue: QueueName, id: string): Promise<JobStatus | null>;
  /** Jobs waiting or running (for readiness and the benchmark). */
  pending(queue: QueueName): Promise<number>;
  /** Lanes whose current job keeps failing transiently (retried without limit), across every worker. */
  stuckLanes(): Promise<StuckLane[]>;
  /**
   * Calls `listener` whenever the queue's state was found lost (Redis restarted empty, flushed, or a
   * failover to a replica that lagged): after the driver restored what it keeps there itself (lane
   * concurrency, schedules), the caller heals the rest (the watcher relists). Returns an unsubscribe.
   */
  onQueueLost(listener: (reason: string) => void): () => void;
  ping(): Promise<void>;
  close(): Promise<void>;
}
