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
  process(job: ReceivedJob): Promise<void>;
}

/** The small interface both transports implement: BullMQ on Redis, or in-process. */
export interface QueueDriver {
  readonly kind: 'bullmq' | 'in-process';
  add(queue: QueueName, jobs: readonly JobRequest[]): Promise<void>;
  /** Starts consuming the queues of these processors (checked with {@link assertHandlers} first). */
  consume(processors: readonly QueueProcessor[]): Promise<void>;
  /** Enqueues `request` now and then every `everyMs` (one schedule per job name, across processes). */
  schedule(queue: QueueName, request: Omit<JobRequest, 'id'>, everyMs: number): Promise<void>;
  /** Jobs waiting or running (for readiness and the benchmark). */
  pending(queue: QueueName): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
