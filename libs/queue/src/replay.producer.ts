import { jobId } from './job-id.util.js';
import { parsePayload, type JobPayload } from './job-payload.schema.js';
import type { QueueDriver } from './queue-driver.types.js';

export type ReplayScopePayload = JobPayload<'replay-projections'>['scope'];

/** Enqueues a projection replay; the id follows scope and request time (the same request twice is one job). */
export class ReplayProducer {
  constructor(private readonly driver: QueueDriver) {}

  async enqueue(scope: ReplayScopePayload, requestedAt: string): Promise<string> {
    const data = parsePayload('replay-projections', { scope, requestedAt });
    const id = jobId('replay', [JSON.stringify(data.scope), requestedAt]);
    await this.driver.add('project', [{ name: 'replay-projections', id, data }]);
    return id;
  }
}
