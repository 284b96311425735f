import type { DataSource } from 'typeorm';
import { createDataSource, ownershipCheckpoint } from '../libs/store/src/index.js';
import { managerTotalsAndIndexSums } from '../libs/store/src/testing/manager-totals.sums.js';
import { IngestProducer, QUEUE_DRIVER, type QueueDriver } from '../libs/queue/src/index.js';
import { createTestContext, deploymentObservation, waitFor, type TestContext } from '../libs/testing/src/index.js';
import { startApplication, type RunningApplication } from '../apps/bootstrap.js';

// Observations → BullMQ (Redis) → ingest processor → Postgres, with the real worker role.

describe('ingest pipeline through BullMQ (real Postgres and Redis)', () => {
  let ctx: TestContext;
  let ds: DataSource;
  const apps: RunningApplication[] = [];

  const startWorker = async () => {
    const app = await startApplication(ctx.config({ INGEST_SHARDS: '4', INGEST_BATCH_SIZE: '50' }), { roles: ['worker'], migrate: false });
    apps.push(app);
    return app;
  };
  const idle = async (driver: QueueDriver) => (await driver.pending('ingest')) === 0 && (await driver.pending('project')) === 0;
  const count = async (sql: string, params: unknown[] = []) => Number((await ds.query(sql, params))[0].n);

  beforeAll(async () => {
    ctx = await createTestContext('pipeline');
    ds = await createDataSource(ctx.database.url, 2).initialize();
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await ds?.destroy();
    await ctx?.dispose();
  });

  it('stores a batch delivered three times once, and advances the projection checkpoint', async () => {
    const app = await startWorker();
    const producer = app.app.get(IngestProducer);
    const driver = app.app.get<QueueDriver>(QUEUE_DRIVER);
    const batch = Array.from({ length: 30 }, (_, i) => deploymentObservation({ uid: `redeliver-${i}`, resourceVersion: '1' }));
    for (let i = 0; i < 3; i++) {
      await producer.enqueue(batch);
      await waitFor('queue to drain', () => idle(driver));
    }
    // The same ids are deduplicated by BullMQ while the job is kept; force real redeliveries with fresh job ids too.
    await driver.add('ingest', producer.build(batch).map((j) => ({ ...j, id: `${j.id}-again` })));
    await waitFor('queue to drain', () => idle(driver));
    expect(await count(`SELECT count(*) AS n FROM events`)).toBe(30);
    expect(await count(`SELECT count(DISTINCT (object_id, resource_version)) AS n FROM events`)).toBe(30);
    await waitFor('checkpoint', async () => (await count(`SELECT coalesce(max(last_seq), 0) AS n FROM projection_checkpoints WHERE projection = $1`, [ownershipCheckpoint(1)])) > 0);
  });

  it('keeps per-object order with two concurrent workers', async () => {
    const [a] = [await startWorker(), await startWorker()];
    const producer = a!.app.get(IngestProducer);
    const driver = a!.app.get<QueueDriver>(QUEUE_DRIVER);
    const objects = 40;
    const versions = 15;
    // Each round observes every object once more; rounds are enqueued in separate jobs, in order.
    for (let v = 1; v <= versions; v++) {
      await producer.enqueue(Array.from({ length: objects }, (_, i) => deploymentObservation({ uid: `order-${i}`, resourceVersion: `${v}`, replicas: v })));
    }
    await waitFor('queue to drain', () => idle(driver), 60_000);
    const rows: { uid: string; rvs: string[] }[] = await ds.query(
      `SELECT o.uid, array_agg(e.resource_version ORDER BY e.seq) AS rvs
       FROM events e JOIN objects o ON o.id = e.object_id WHERE o.uid LIKE 'order-%' GROUP BY o.uid`,
    );
    expect(rows).toHaveLength(objects);
    const expected = Array.from({ length: versions }, (_, v) => `${v + 1}`);
    for (const r of rows) expect(r.rvs).toEqual(expected);

    // The manager totals follow the index the lanes wrote, and the maintenance lane's schedule folds them to one row per key.
    const before = await managerTotalsAndIndexSums(ds);
    expect(before.totals).toEqual(before.counted);
    await waitFor('manager totals compacted', async () => (await count(`SELECT count(*) - count(DISTINCT (generation, cluster, manager, identities)) AS n FROM manager_totals`)) === 0, 30_000);
    const after = await managerTotalsAndIndexSums(ds);
    expect(after.totals).toEqual(after.counted);
    expect(await count(`SELECT count(*) AS n FROM manager_totals`)).toBe(after.counted.length);
  });
});
