import type { DataSource } from 'typeorm';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { resolveSensitiveHashKey } from '../../libs/config/src/index.js';
import { Metrics, createLogger, type Observation } from '../../libs/common/src/index.js';
import { DeadLetterRepository, WatchPositionRepository, createDataSource } from '../../libs/store/src/index.js';
import { foldingAppender } from '../../libs/store/src/testing/worker-use-cases.js';
import { BullMqQueueDriver, IngestProducer, ProjectProducer, deleteQueueKeys } from '../../libs/queue/src/index.js';
import { IngestProcessor } from '../../apps/worker/src/ingest.processor.js';
import { createTestContext, deploymentObservation, waitFor, type TestContext } from '../../libs/testing/src/index.js';

// An ingest lane never skips a batch: transient failures are retried without limit (the lane reports
// itself stuck meanwhile), permanent ones put the one bad observation into the dead letters and the
// lane goes on; the watcher's positions commit with the batches they end; a lost queue is detected
// and its lane concurrency restored. Real Postgres, Redis and BullMQ; the failures are raised by
// Postgres itself (triggers the test installs in its own database).

describe('ingest lanes: no silent holes (real Postgres, Redis, BullMQ)', () => {
  let ctx: TestContext;
  let ds: DataSource;
  let driver: BullMqQueueDriver;
  let metrics: Metrics;
  let producer: IngestProducer;
  const shards = 2;
  const logger = createLogger('silent');

  const count = async (sql: string, params: unknown[] = []) => Number((await ds.query(sql, params))[0].n);

  beforeAll(async () => {
    ctx = await createTestContext('lanes');
    ds = await createDataSource(ctx.database.url, 4).initialize();
    const config = ctx.config({ INGEST_SHARDS: String(shards), JOB_ATTEMPTS: '2' });
    metrics = new Metrics();
    driver = new BullMqQueueDriver(
      { redisUrl: ctx.redisUrl, prefix: ctx.prefix, ingestShards: shards, attempts: 2, lockDurationMs: 5000, epochCheckMs: 200 },
      logger,
      { laneStuck: (lane, stuck) => metrics.laneStuck.set({ lane }, stuck ? 1 : 0), queueLost: () => metrics.queueLost.inc() },
    );
    producer = new IngestProducer(driver, config.queue, { sensitiveKinds: [], hashKey: resolveSensitiveHashKey(config.capture.hashKey) });
    const processor = new IngestProcessor(foldingAppender(ds, config.capture), new DeadLetterRepository(ds), new ProjectProducer(driver), metrics, logger);
    await driver.consume([processor]);
  });
  afterAll(async () => {
    await driver?.close();
    await ds?.destroy();
    await ctx?.dispose();
  });

  const metric = async (name: string) => {
    const m = (await metrics.registry.getMetricsAsJSON()).find((x) => x.name === name);
    return (m?.values ?? []).reduce((s, v) => s + Number(v.value), 0);
  };

  it('a permanent failure puts only the bad observation into the dead letters; the rest of its batch and the later batches are stored', async () => {
    await ds.query(`
      CREATE FUNCTION reject_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.resource_version = 'poison' THEN RAISE EXCEPTION 'poisoned observation' USING ERRCODE = '22023'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER reject_poison BEFORE INSERT ON observations_seen FOR EACH ROW EXECUTE FUNCTION reject_poison();`);
    const batch: Observation[] = Array.from({ length: 20 }, (_, i) => deploymentObservation({ uid: `p-${i}`, resourceVersion: i === 7 ? 'poison' : '1' }));
    await producer.enqueue(batch);
    await producer.enqueue(Array.from({ length: 20 }, (_, i) => deploymentObservation({ uid: `p-${i}`, resourceVersion: '2', replicas: 9 })));

    await waitFor('every good observation stored', async () => (await count(`SELECT count(*) AS n FROM events`)) === 39, 60_000, 100);
    const letters = await new DeadLetterRepository(ds).list({ limit: 10 });
    expect(letters.items).toHaveLength(1);
    expect(letters.items[0]).toMatchObject({ uid: 'p-7', resourceVersion: 'poison', kind: 'Deployment', errorCode: '22023', name: 'web-p-7' });
    expect(letters.items[0]!.reason).toContain('poisoned observation');
    expect(letters.items[0]!.observation).toMatchObject({ object: { metadata: { uid: 'p-7', resourceVersion: 'poison' } } });
    expect(await metric('ssa_audit_dead_letters_total')).toBe(1);
    // Nothing failed for good: every job completed.
    expect(await driver.pending('ingest')).toBe(0);
    // Each stored object was folded at append (or left to the projector) once: 19 one by one, then 20.
    expect(await metric('ssa_audit_projected_at_append_objects_total')).toBe(39);
    await ds.query(`DROP TRIGGER reject_poison ON observations_seen`);
  }, 120_000);

  it('a transient failure is retried past JOB_ATTEMPTS without limit; the lane says it is stuck meanwhile, and nothing behind it is skipped', async () => {
    await ds.query(`
      CREATE SEQUENCE flaky_tries;
      CREATE FUNCTION flaky() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.resource_version = 'flaky' AND nextval('flaky_tries') <= 5 THEN
          RAISE EXCEPTION 'the database system is starting up' USING ERRCODE = '57P03';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER flaky BEFORE INSERT ON observations_seen FOR EACH ROW EXECUTE FUNCTION flaky();`);
    const before = await count(`SELECT count(*) AS n FROM events`);
    const flaky = deploymentObservation({ uid: 'f-1', resourceVersion: 'flaky' });
    await producer.enqueue([flaky]);
    await producer.enqueue([deploymentObservation({ uid: 'f-1', resourceVersion: 'after', replicas: 5 })]);

    const stuck = await waitFor('the lane reported stuck', async () => {
      const lanes = await driver.stuckLanes();
      return lanes.length > 0 ? lanes : undefined;
    }, 30_000, 100);
    expect(stuck[0]!.error).toContain('starting up');
    expect(await metric('ssa_audit_lane_stuck')).toBe(1);
    await waitFor('both stored, in order', async () => (await count(`SELECT count(*) AS n FROM events`)) === before + 2, 60_000, 100);
    const rvs = (await ds.query(`SELECT e.resource_version FROM events e JOIN objects o ON o.id = e.object_id WHERE o.uid = 'f-1' ORDER BY e.seq`)).map((r: { resource_version: string }) => r.resource_version);
    expect(rvs).toEqual(['flaky', 'after']);
    expect(Number((await ds.query(`SELECT last_value AS n FROM flaky_tries`))[0].n)).toBeGreaterThan(2); // more tries than JOB_ATTEMPTS
    await waitFor('the lane going again', async () => (await driver.stuckLanes()).length === 0, 10_000, 100);
    expect(await metric('ssa_audit_lane_stuck')).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM dead_letters WHERE uid = 'f-1'`)).toBe(0);
    await ds.query(`DROP TRIGGER flaky ON observations_seen`);
  }, 120_000);

  it('a checkpoint commits with the batches it ends: a position counts only once every lane has committed it', async () => {
    const positions = new WatchPositionRepository(ds);
    const obs = [deploymentObservation({ uid: 'c-1', resourceVersion: '10' }), deploymentObservation({ uid: 'c-2', resourceVersion: '11' })];
    const jobs = producer.build(obs, { cluster: 'test', clusterUid: 'k1', flush: '100', positions: { 'deployments.apps': '11' } });
    expect(jobs.filter((j) => (j.data as { checkpoint?: unknown }).checkpoint)).toHaveLength(shards);
    // Only lane 0's jobs run: the position is not yet claimed.
    await driver.add('ingest', jobs.filter((j) => j.shard === 0));
    await waitFor('lane 0 done', async () => (await driver.pending('ingest')) === 0, 20_000, 50);
    expect((await positions.load('test', 'k1', shards)).positions.size).toBe(0);
    await driver.add('ingest', jobs.filter((j) => j.shard === 1));
    await waitFor('lane 1 done', async () => (await positions.load('test', 'k1', shards)).positions.get('deployments.apps') === '11', 20_000, 50);
    // A later checkpoint only lane 1 committed: the resume point stays at the older one.
    await driver.add('ingest', producer.build([], { cluster: 'test', clusterUid: 'k1', flush: '101', positions: { 'deployments.apps': '12' } }).filter((j) => j.shard === 1));
    await waitFor('lane 1 done', async () => (await driver.pending('ingest')) === 0, 20_000, 50);
    const loaded = await positions.load('test', 'k1', shards);
    expect(loaded.positions.get('deployments.apps')).toBe('11');
    expect(loaded.maxFlush).toBe(101n);
    // Another identity behind the same cluster name has no positions, and says another one had.
    expect(await positions.load('test', 'k2', shards)).toEqual({ positions: new Map(), maxFlush: 101n, otherIdentity: 'k1' });
  }, 60_000);

  it('a lost queue (its keys flushed) is detected, lane concurrency restored, listeners told', async () => {
    const lost: string[] = [];
    const off = driver.onQueueLost((reason) => lost.push(reason));
    const connection = new Redis(ctx.redisUrl, { maxRetriesPerRequest: null });
    const lane = new Queue('ingest-0', { connection, prefix: ctx.prefix });
    try {
      expect(await lane.getGlobalConcurrency()).toBe(1);
      await deleteQueueKeys(ctx.redisUrl, ctx.prefix);
      await waitFor('the loss detected', async () => lost.length > 0, 10_000, 50);
      expect(lost[0]).toContain('epoch marker is gone');
      expect(await lane.getGlobalConcurrency()).toBe(1);
      expect(await metric('ssa_audit_queue_lost_total')).toBe(1);
      // Jobs flow again after the loss.
      const before = await count(`SELECT count(*) AS n FROM events`);
      await producer.enqueue([deploymentObservation({ uid: 'l-1', resourceVersion: '1' })]);
      await waitFor('stored after the loss', async () => (await count(`SELECT count(*) AS n FROM events`)) === before + 1, 20_000, 50);
    } finally {
      off();
      await lane.close();
      await connection.quit().catch(() => undefined);
    }
  }, 60_000);
});
