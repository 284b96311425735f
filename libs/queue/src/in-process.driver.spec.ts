import { createLogger } from '../../common/src/index.js';
import { InProcessQueueDriver } from './in-process.driver.js';
import { MissingJobHandlerError } from './assert-handlers.js';
import type { QueueProcessor, ReceivedJob } from './queue-driver.types.js';
import { JOB_NAMES } from './queue.constants.js';
import { ReplayProducer } from './replay.producer.js';
import { gatedProcessor } from './testing/gated-processor.js';

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

  it('skips a scheduled tick while the last run is waiting or running, and keeps no status of completed runs', async () => {
    const d = new InProcessQueueDriver({ ingestShards: 1, attempts: 1 }, logger);
    const { seen, processor } = recorder();
    let release: () => void = () => undefined;
    const slow: QueueProcessor = {
      queue: 'maintenance',
      handles: [...JOB_NAMES.maintenance],
      async process(job) {
        seen.push(job.id);
        if (job.id.endsWith('-0')) await new Promise<void>((r) => (release = r));
      },
    };
    await d.consume([processor, slow]);
    await d.add('project', [{ name: 'replay-projections', id: 'replay-1', data: {} }]);
    await d.schedule('maintenance', { name: 'refresh-statistics', data: { reason: 'schedule' } }, 10);
    await new Promise((r) => setTimeout(r, 100));
    // About ten ticks while the first run was held: none queued another behind it.
    expect(seen.filter((id) => id.startsWith('refresh-statistics'))).toEqual(['refresh-statistics-every-10-0']);
    expect(await d.job('maintenance', 'refresh-statistics-every-10-1')).toBeNull();
    release();
    await new Promise((r) => setTimeout(r, 60));
    const runs = seen.filter((id) => id.startsWith('refresh-statistics'));
    expect(runs.length).toBeGreaterThan(1);
    for (const id of runs) expect(await d.job('maintenance', id)).toBeNull();
    expect((await d.job('project', 'replay-1'))?.state).toBe('completed');
    await d.close();
  });

  it('refuses to start when a queue has no processor for its jobs', async () => {
    const d = new InProcessQueueDriver({ ingestShards: 1, attempts: 1 }, logger);
    const bad: QueueProcessor = { queue: 'ingest', handles: [], process: async () => undefined };
    await expect(d.consume([bad])).rejects.toThrow(MissingJobHandlerError);
    await expect(d.consume([bad])).rejects.toThrow('job "ingest-observations" on queue "ingest" has no handler');
  });

  it('reports job status: waiting, active with progress, completed with its result, failed with its reason; null when unknown', async () => {
    const d = new InProcessQueueDriver({ ingestShards: 1, attempts: 1 }, logger);
    const { processor, release } = gatedProcessor({ events: 3, objects: 1, percent: 50 }, { events: 6, objects: 2 });
    const data = { scope: { kind: 'all' }, requestedAt: '2026-01-01T00:00:00.000Z' };
    await d.add('project', [
      { name: 'replay-projections', id: 'r', data },
      { name: 'replay-projections', id: 'bad', data },
    ]);
    expect(await d.job('project', 'r')).toEqual({ id: 'r', name: 'replay-projections', data, state: 'waiting', progress: null, result: null, failedReason: null });
    expect(await d.job('project', 'nope')).toBeNull();
    expect(await d.job('ingest', 'r')).toBeNull();
    await d.consume([processor]);
    await settle();
    expect(await d.job('project', 'r')).toMatchObject({ state: 'active', progress: { events: 3, objects: 1, percent: 50 }, result: null });
    expect((await d.job('project', 'bad'))?.state).toBe('waiting');
    release();
    await settle();
    expect(await d.job('project', 'r')).toMatchObject({ state: 'completed', progress: { percent: 50 }, result: { events: 6, objects: 2 }, failedReason: null });
    expect(await d.job('project', 'bad')).toMatchObject({ state: 'failed', result: null, failedReason: 'boom on attempt 1' });
    await d.close();
  });

  it('drops completed ingest jobs (large payloads), as the BullMQ driver does', async () => {
    const d = new InProcessQueueDriver({ ingestShards: 1, attempts: 1 }, logger);
    await d.consume([{ queue: 'ingest', handles: [...JOB_NAMES.ingest], process: async () => undefined }]);
    await d.add('ingest', [{ name: 'ingest-observations', id: 'i', data: {}, shard: 0 }]);
    await settle();
    expect(await d.job('ingest', 'i')).toBeNull();
    await d.close();
  });
});

describe('ReplayProducer.status over the in-process driver', () => {
  it('reads a replay back by its job id; null for an unknown id or a job that is no replay', async () => {
    const d = new InProcessQueueDriver({ ingestShards: 1, attempts: 1 }, logger);
    const replays = new ReplayProducer(d);
    const id = await replays.enqueue({ kind: 'cluster', cluster: 'prod' }, '2026-01-01T00:00:00.000Z');
    expect(await replays.status(id)).toEqual({
      jobId: id, scope: { kind: 'cluster', cluster: 'prod' }, requestedAt: '2026-01-01T00:00:00.000Z', state: 'waiting', progress: null, result: null, failedReason: null,
    });
    await d.consume([{
      queue: 'project',
      handles: [...JOB_NAMES.project],
      async process(job) {
        await job.reportProgress?.({ scope: 'cluster', events: 4, objects: 2, percent: 100 });
        return { events: 4, objects: 2, seconds: 0.5 };
      },
    }]);
    await settle();
    expect(await replays.status(id)).toMatchObject({ state: 'completed', progress: { events: 4, objects: 2, percent: 100 }, result: { events: 4, objects: 2, seconds: 0.5 } });
    expect(await replays.status('replay-00000000000000000000000000000000')).toBeNull();
    await d.add('project', [{ name: 'project-events', id: 'p', data: { objects: [] } }]);
    expect(await replays.status('p')).toBeNull();
    await d.close();
  });
});
