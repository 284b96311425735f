import { jobId } from './job-id.util.js';
import type { QueueDriver } from './queue-driver.types.js';

/** Enqueues projection work for objects an ingest job touched; the id follows the ingest job, so a redelivery adds nothing. */
export class ProjectProducer {
  constructor(private readonly driver: QueueDriver) {}

  async enqueue(causedBy: string, objects: readonly { cluster: string; uid: string }[]): Promise<void> {
    await this.driver.add('project', [
      { name: 'project-events', id: jobId('project', [causedBy]), data: { objects: objects.map(({ cluster, uid }) => ({ cluster, uid })) } },
    ]);
  }
}
