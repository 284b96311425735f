import { randomBytes } from 'node:crypto';
import { createLogger } from '../../common/src/index.js';
import { loadTestSettings } from '../../config/src/index.js';
import { waitFor } from '../../testing/src/index.js';
import { BullMqQueueDriver, deleteQueueKeys } from './bullmq.driver.js';
import { ReplayProducer } from './replay.producer.js';
import { gatedProcessor } from './testing/gated-processor.js';

// Job status through real Redis and BullMQ: what GET /v1/replays/{jobId} reads.

describe('BullMqQueueDriver.job (real Redis)', () => {
  const { redisUrl } = loadTestSettings();
  const prefix = `ssa-audit-test-${randomBytes(5).toString('hex')}`;
  const logger = createLogger('silent');
  let driver: BullMqQueueDriver;

  beforeAll(() => {
    driver = new BullMqQueueDriver({ redisUrl, prefix, ingestShards: 2, attempts: 2, lockDurationMs: 5000 }, logger);
  });
  afterAll(async () => {
    await driver.close();
    await deleteQueueKeys(redisUrl, prefix);
  });

  it('waiting → active with progress → completed with the result; failed with the reason after its retries; null when unknown', async () => {
    const { processor, release } = gatedProcessor({ scope: 'all', events: 3, objects: 1, percent: 50 }, { events: 6, objects: 2, seconds: 0.25 });
    const replays = new ReplayProducer(driver);
    const id = await replays.enqueue({ kind: 'all' }, '2026-01-01T00:00:00.000Z');
    expect(await replays.status(id)).toEqual({
      jobId: id, scope: { kind: 'all' }, requestedAt: '2026-01-01T00:00:00.000Z', state: 'waiting', progress: null, result: null, failedReason: null,
    });
    expect(await driver.job('project', 'replay-00000000000000000000000000000000')).toBeNull();

    await driver.consume([processor]);
    const active = await waitFor('active with progress', async () => {
      const s = await replays.status(id);
      return s?.state === 'active' && s.progress ? s : undefined;
    }, 20_000, 50);
    expect(active).toMatchObject({ progress: { events: 3, objects: 1, percent: 50 }, result: null, failedReason: null });

    release();
    const done = await waitFor('completed', async () => {
      const s = await replays.status(id);
      return s?.state === 'completed' ? s : undefined;
    }, 20_000, 50);
    expect(done).toMatchObject({ progress: { percent: 50 }, result: { events: 6, objects: 2, seconds: 0.25 }, failedReason: null });

    await driver.add('project', [{ name: 'replay-projections', id: 'bad', data: { scope: { kind: 'all' }, requestedAt: '2026-01-01T00:00:01.000Z' } }]);
    const failed = await waitFor('failed', async () => {
      const s = await driver.job('project', 'bad');
      return s?.state === 'failed' ? s : undefined;
    }, 20_000, 50);
    expect(failed).toMatchObject({ name: 'replay-projections', result: null, failedReason: 'boom on attempt 2' });

    // A job of another kind on the same queue is no replay.
    await driver.add('project', [{ name: 'project-events', id: 'p', data: { objects: [] } }]);
    expect((await driver.job('project', 'p'))?.name).toBe('project-events');
    expect(await replays.status('p')).toBeNull();
  });

  it('finds a job on any ingest lane', async () => {
    await driver.add('ingest', [{ name: 'ingest-observations', id: 'lane-1', data: { observations: [] }, shard: 1 }]);
    expect(await driver.job('ingest', 'lane-1')).toMatchObject({ state: 'waiting', name: 'ingest-observations' });
  });
});
