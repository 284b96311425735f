/** Logical queues. `ingest` is split into ordered shards (`ingest-0` … `ingest-N`); the others are single queues. */
export const QUEUE_NAMES = ['ingest', 'project', 'maintenance', 'schemas'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Every job name, by the queue that carries it. Start-up fails unless each has exactly one handler. */
export const JOB_NAMES = {
  ingest: ['ingest-observations'],
  project: ['project-events', 'replay-projections'],
  maintenance: ['maintain-partitions', 'refresh-statistics', 'compact-manager-totals'],
  schemas: ['store-api-schemas'],
} as const satisfies Record<QueueName, readonly string[]>;

export type JobName = (typeof JOB_NAMES)[QueueName][number];

/** The physical queue names of a logical queue. */
export function physicalQueues(queue: QueueName, ingestShards: number): string[] {
  return queue === 'ingest' ? Array.from({ length: ingestShards }, (_, i) => `ingest-${i}`) : [queue];
}

/** Injection token of the {@link QueueDriver}. */
export const QUEUE_DRIVER = Symbol('QUEUE_DRIVER');
