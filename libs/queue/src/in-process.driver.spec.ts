import { createLogger } from '../../common/src/index.js';
import { InProcessQueueDriver } from './in-process.driver.js';
import { MissingJobHandlerError } from './assert-handlers.js';
import type { QueueProcessor, ReceivedJob } from './queue-driver.types.js';
import { JOB_NAMES } from './queue.constants.js';

const logger = createLogger('silent');
const settle = () => new Promise((r) => setTimeout(r, 20));

function recorder(fail: (job: ReceivedJob) => boolean = () => false) {
  const seen: string[] = [];
  const processor: QueueProcessor = {
    queue: 'project',
    handles: [...JOB_NAMES.project], // every job of the queue, as start-up requires
    async process(job) {
      seen.push(`${job.id}#${job.attempt}`);
      if (fail(job)) throw new Error('boom');
    },
  };
  return { seen, processor };
}

describe('InProcessQueueDriver', () => {
  it('runs jobs added before and after consume, in order, once per id', async () => {
    const d = new InProcessQueueDriver({ ingestShards: 2, attempts: 3 }, logger);
    const { seen, processor } = recorder();
    await d.add('project', [{ name: 'project-events', id: 'a', data: {} }]);
    await d.consume([processor]);
    await d.add('project', [
      { name: 'project-events', id: 'b', data: {} },
      { name: 'project-events', id: 'a', data: {} },
      { name: 'project-events', id: 'c', data: {} },
    ]);
    await settle();
    expect(seen).toEqual(['a#1', 'b#1', 'c#1']);
    expect(await d.pending('project')).toBe(0);
    // A lane that went idle picks up new work.
    await d.add('project', [{ name: 'project-events', id: 'd', data: {} }]);
    await settle();
    expect(seen).toEqual(['a#1', 'b#1', 'c#1', 'd#1']);
    await d.close();
  });

  it('retries a failing job in place before the next one runs', async () => {
    const d = new InProcessQueueDriver({ ingestShards: 1, attempts: 2 }, logger);
    const { seen, processor } = recorder((j) => j.id === 'x' && j.attempt === 1);
    await d.consume([processor]);
    await d.add('project', [
      { name: 'project-events', id: 'x', data: {} },
      { name: 'project-events', id: 'y', data: {} },
    ]);
    await new Promise((r) => setTimeout(r, 900));
    expect(seen).toEqual(['x#1', 'x#2', 'y#1']);
    await d.close();
  });

  it('refuses to start when a queue has no processor for its jobs', async () => {
    const d = new InProcessQueueDriver({ ingestShards: 1, attempts: 1 }, logger);
    const bad: QueueProcessor = { queue: 'ingest', handles: [], process: async () => undefined };
    await expect(d.consume([bad])).rejects.toThrow(MissingJobHandlerError);
    await expect(d.consume([bad])).rejects.toThrow('job "ingest-observations" on queue "ingest" has no handler');
  });
});
