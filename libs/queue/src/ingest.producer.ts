import type { KeyObject } from 'node:crypto';
import type { QueueConfig } from '../../config/src/index.js';
import { redactObservation, type Observation, type WatchCheckpoint } from '../../common/src/index.js';
import { boundedChunks } from './bounded-chunks.util.js';
import { jobId, shardOf } from './job-id.util.js';
import { parsePayload } from './job-payload.schema.js';
import type { JobRequest, QueueDriver } from './queue-driver.types.js';

/** A checkpoint as the watcher makes it: the producer adds the lane of each copy. */
export type Checkpoint = Omit<WatchCheckpoint, 'lane' | 'lanes'>;

/**
 * Turns observations into ingest jobs: validated, redacted before they reach the queue (Secret values
 * never enter Redis), split by object into ordered shards, chunked (by count and bytes), with ids derived from content.
 */
export class IngestProducer {
  constructor(
    private readonly driver: QueueDriver,
    private readonly queue: QueueConfig,
    private readonly redaction: { readonly sensitiveKinds: readonly string[]; readonly hashKey: KeyObject },
  ) {}

  /**
   * Builds the jobs without enqueueing them (the benchmark and tests use this). With a `checkpoint`,
   * every lane gets a copy on its last job (an empty job where the lane has no observations), so the
   * positions are committed in each lane after everything before them.
   */
  build(observations: readonly Observation[], checkpoint?: Checkpoint): JobRequest[] {
    const shards = this.queue.ingestShards;
    if (checkpoint) parsePayload('ingest-observations', { observations: [], checkpoint: { ...checkpoint, lane: 0, lanes: shards } });
    const valid = observations.length === 0 ? [] : (parsePayload('ingest-observations', { observations }).observations as Observation[]);
    const lanes = new Map<number, Observation[]>();
    for (const o of valid) {
      const shard = shardOf(o.cluster, o.object.metadata.uid, shards);
      const lane = lanes.get(shard) ?? [];
      lane.push(redactObservation(o, this.redaction.sensitiveKinds, this.redaction.hashKey));
      lanes.set(shard, lane);
    }
    const jobs: JobRequest[] = [];
    for (const [shard, list] of lanes) {
      // Bounded in bytes too: a lane of large objects (CRDs, dashboards in ConfigMaps: up to about 1.5 MB each)
      // would otherwise make jobs of hundreds of MB, held whole in Redis and in the worker's heap.
      for (const chunk of boundedChunks(list, this.queue.ingestBatchSize, this.queue.ingestBatchBytes, jsonBytes)) {
        const id = jobId(`ingest-${shard}`, chunk.map((o) => `${o.cluster}/${o.object.metadata.uid}/${o.object.metadata.resourceVersion}`));
        jobs.push({ name: 'ingest-observations', id, shard, data: { observations: chunk } });
      }
    }
    if (!checkpoint) return jobs;
    for (let lane = 0; lane < shards; lane++) {
      const data = { checkpoint: { ...checkpoint, lane, lanes: shards } };
      const last = jobs.findLastIndex((j) => j.shard === lane);
      const id = jobId(`ingest-${lane}`, ['checkpoint', checkpoint.cluster, checkpoint.flush, ...(last >= 0 ? [jobs[last]!.id] : [])]);
      if (last >= 0) jobs[last] = { ...jobs[last]!, id, data: { ...(jobs[last]!.data as object), ...data } };
      else jobs.push({ name: 'ingest-observations', id, shard: lane, data: { observations: [], ...data } });
    }
    return jobs;
  }

  /** Enqueues the observations (and the checkpoint they end); returns the job ids. */
  async enqueue(observations: readonly Observation[], checkpoint?: Checkpoint): Promise<string[]> {
    const jobs = this.build(observations, checkpoint);
    await this.driver.add('ingest', jobs);
    return jobs.map((j) => j.id);
  }
}

/** An observation's size in a job, as its JSON's UTF-8 bytes. */
const jsonBytes = (o: Observation): number => Buffer.byteLength(JSON.stringify(o));
