import type { QueueConfig } from '../../config/src/index.js';
import { redactObservation, type Observation } from '../../common/src/index.js';
import { jobId, shardOf } from './job-id.util.js';
import { parsePayload } from './job-payload.schema.js';
import type { JobRequest, QueueDriver } from './queue-driver.types.js';

/**
 * Turns observations into ingest jobs: validated, redacted before they reach the queue (Secret values
 * never enter Redis), split by object into ordered shards, chunked, with ids derived from content.
 */
export class IngestProducer {
  constructor(
    private readonly driver: QueueDriver,
    private readonly queue: QueueConfig,
    private readonly sensitiveKinds: readonly string[],
  ) {}

  /** Builds the jobs without enqueueing them (the benchmark and tests use this). */
  build(observations: readonly Observation[]): JobRequest[] {
    const valid = parsePayload('ingest-observations', { observations }).observations as Observation[];
    const lanes = new Map<number, Observation[]>();
    for (const o of valid) {
      const shard = shardOf(o.cluster, o.object.metadata.uid, this.queue.ingestShards);
      const lane = lanes.get(shard) ?? [];
      lane.push(redactObservation(o, this.sensitiveKinds));
      lanes.set(shard, lane);
    }
    const jobs: JobRequest[] = [];
    for (const [shard, list] of lanes) {
      for (let i = 0; i < list.length; i += this.queue.ingestBatchSize) {
        const chunk = list.slice(i, i + this.queue.ingestBatchSize);
        const id = jobId(`ingest-${shard}`, chunk.map((o) => `${o.cluster}/${o.object.metadata.uid}/${o.object.metadata.resourceVersion}`));
        jobs.push({ name: 'ingest-observations', id, shard, data: { observations: chunk } });
      }
    }
    return jobs;
  }

  /** Enqueues the observations; returns the job ids. */
  async enqueue(observations: readonly Observation[]): Promise<string[]> {
    const jobs = this.build(observations);
    await this.driver.add('ingest', jobs);
    return jobs.map((j) => j.id);
  }
}
