import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import type { DataSource } from 'typeorm';
import { resolveSensitiveHashKey } from '../libs/config/src/index.js';
import { createLogger } from '../libs/common/src/index.js';
import { createDataSource } from '../libs/store/src/index.js';
import { BullMqQueueDriver, IngestProducer } from '../libs/queue/src/index.js';
import { createTestContext, deploymentObservation, waitFor, type TestContext } from '../libs/testing/src/index.js';

// A real worker process (apps/main.ts worker) is SIGKILLed while a batch transaction is open;
// after a restart every observation is an event exactly once.

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');

describe('crash safety (real Postgres and Redis, a worker child process)', () => {
  let ctx: TestContext;
  let ds: DataSource;
  let child: ChildProcess | undefined;
  let driver: BullMqQueueDriver | undefined;

  const env = () => ctx.env({ INGEST_SHARDS: '2', INGEST_BATCH_SIZE: '200', JOB_LOCK_DURATION_MS: '2000', LOG_LEVEL: 'warn' });
  const startWorker = () => {
    const { NODE_OPTIONS: _ignored, ...inherited } = process.env;
    const p = spawn(process.execPath, ['--import', 'tsx', 'apps/main.ts', 'worker'], { cwd: ROOT, env: { ...inherited, ...env() }, stdio: ['ignore', 'inherit', 'inherit'] });
    child = p;
    return p;
  };
  const stop = async (p: ChildProcess, signal: NodeJS.Signals) => {
    if (p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill(signal);
    await exited;
  };
  const n = async (sql: string) => Number((await ds.query(sql))[0].n);
  /** A writing transaction of the worker is open right now (it holds a transaction id). */
  const midBatch = async () =>
    (await n(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'ssa-audit' AND backend_xid IS NOT NULL`)) > 0;

  beforeAll(async () => {
    ctx = await createTestContext('crash');
    ds = await createDataSource(ctx.database.url, 2).initialize();
  });
  afterAll(async () => {
    if (child) await stop(child, 'SIGKILL');
    await driver?.close();
    await ds?.destroy();
    await ctx?.dispose();
  });

  it('loses nothing and duplicates nothing when killed mid-batch', async () => {
    const config = ctx.config(env());
    const queue = new BullMqQueueDriver(
      { redisUrl: ctx.redisUrl, prefix: ctx.prefix, ingestShards: 2, attempts: 5, lockDurationMs: 2000 },
      createLogger('silent'),
    );
    driver = queue;
    const producer = new IngestProducer(queue, config.queue, { sensitiveKinds: [], hashKey: resolveSensitiveHashKey(config.capture.hashKey) });
    const total = 6000;
    for (let round = 0; round < 3; round++) {
      await producer.enqueue(Array.from({ length: total / 3 }, (_, i) => deploymentObservation({ uid: `crash-${i}`, resourceVersion: `${round + 1}`, replicas: round + 1 })));
    }

    for (let kill = 0; kill < 2; kill++) {
      const worker = startWorker();
      const before = await n(`SELECT count(*) AS n FROM events`);
      await waitFor('the worker to be inside a batch transaction', async () => (await n(`SELECT count(*) AS n FROM events`)) > before && (await midBatch()), 60_000, 5);
      await stop(worker, 'SIGKILL');
    }
    const killedAt = await n(`SELECT count(*) AS n FROM events`);
    expect(killedAt).toBeLessThan(total);

    const worker = startWorker();
    await waitFor('every observation stored', async () => (await n(`SELECT count(*) AS n FROM events`)) >= total && (await queue.pending('ingest')) === 0, 90_000, 200);
    await stop(worker, 'SIGTERM');

    expect(await n(`SELECT count(*) AS n FROM events`)).toBe(total);
    expect(await n(`SELECT count(DISTINCT (object_id, resource_version)) AS n FROM events`)).toBe(total);
    expect(await n(`SELECT count(*) AS n FROM observations_seen`)).toBe(total);
    // Per object, versions in order.
    const bad = await n(`SELECT count(*) AS n FROM (SELECT object_id, array_agg(resource_version ORDER BY seq) AS rvs FROM events GROUP BY object_id) x WHERE rvs <> ARRAY['1','2','3']`);
    expect(bad).toBe(0);
  });
});
