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
  ping(): Promise<void>;
  close(): Promise<void>;
}
