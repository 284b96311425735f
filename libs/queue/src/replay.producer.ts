import { jobId } from './job-id.util.js';
import { parsePayload, type JobPayload } from './job-payload.schema.js';
import type { JobState, QueueDriver } from './queue-driver.types.js';

export type ReplayScopePayload = JobPayload<'replay-projections'>['scope'];

/** A replay job's result (what the worker's replay resolves to). */
export interface ReplayResult {
  readonly events: number;
  readonly objects: number;
  readonly seconds: number;
}

/** Where a replay is: its request, state, last progress, and result or failure. */
export interface ReplayStatus {
  readonly jobId: string;
  readonly scope: ReplayScopePayload;
  readonly requestedAt: string;
  readonly state: JobState;
  /** The last progress the worker reported (`percent` is an estimate, 0–100); `null` before any. */
  readonly progress: { readonly events: number; readonly objects: number; readonly percent: number } | null;
  readonly result: ReplayResult | null;
  readonly failedReason: string | null;
}

/** The shape of a replay job id (see {@link ReplayProducer.enqueue}). */
export const REPLAY_JOB_ID = /^replay-[0-9a-f]{32}$/;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Enqueues a projection replay; the id follows scope and request time (the same request twice is one job). */
export class ReplayProducer {
  constructor(private readonly driver: QueueDriver) {}

  async enqueue(scope: ReplayScopePayload, requestedAt: string): Promise<string> {
    const data = parsePayload('replay-projections', { scope, requestedAt });
    const id = jobId('replay', [JSON.stringify(data.scope), requestedAt]);
    await this.driver.add('project', [{ name: 'replay-projections', id, data }]);
    return id;
  }

  /** The status of replay job `id`, or `null` when the queue does not know it (or it is no replay). */
  async status(id: string): Promise<ReplayStatus | null> {
    const job = await this.driver.job('project', id);
    if (!job || job.name !== 'replay-projections') return null;
    const { scope, requestedAt } = parsePayload('replay-projections', job.data);
    const p = job.progress ?? {};
    const [events, objects, percent] = [num(p['events']), num(p['objects']), num(p['percent'])];
    const r = (typeof job.result === 'object' && job.result !== null ? job.result : {}) as Record<string, unknown>;
    const [rEvents, rObjects, seconds] = [num(r['events']), num(r['objects']), num(r['seconds'])];
    return {
      jobId: id,
      scope,
      requestedAt,
      state: job.state,
      progress: events !== undefined && objects !== undefined && percent !== undefined ? { events, objects, percent } : null,
      result: rEvents !== undefined && rObjects !== undefined && seconds !== undefined ? { events: rEvents, objects: rObjects, seconds } : null,
      failedReason: job.failedReason,
    };
  }
}
