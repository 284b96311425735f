// npm run bench:ingest -- [--objects 100000] [--rounds 2] [--workers 2] [--shards 4] [--batch 500] [--chunk 2000]
// (--chunk: observations per producer call, split over the shards and cut into jobs of at most --batch)
// BENCH_CPU_PROF=/tmp/prof npm run bench:ingest … also writes one CPU profile per worker process.
//
// A synthetic observation stream (Deployments with ~2 KiB of managedFields; after the first round,
// 30 % of observations are time-only changes) goes through the real pipeline: IngestProducer →
// BullMQ on the local Redis → worker processes (the built `node dist/apps/main.js worker`; npm run
// bench:ingest builds first) → Postgres. Then the stored event rows are written again with a plain
// COPY into a table with the same indexes, for the ratio.
import type { ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { resolveSensitiveHashKey } from '../libs/config/src/index.js';
import { createLogger } from '../libs/common/src/index.js';
import { BullMqQueueDriver, IngestProducer } from '../libs/queue/src/index.js';
import { createTestContext } from '../libs/testing/src/index.js';
import { cpuSeconds, deploymentStream, peakRssMiB, spawnRole, stdoutLine, stopProcess } from './bench-support.js';

const { values: args } = parseArgs({
  options: {
    objects: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
    shards: { type: 'string', default: '4' },
    batch: { type: 'string', default: '500' },
    chunk: { type: 'string', default: '2000' },
  },
});
const objects = Number(args.objects);
const rounds = Number(args.rounds);
const workers = Number(args.workers);
const total = objects * (1 + rounds);
const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

const stream = () => deploymentStream({ objects, rounds, chunk: Number(args.chunk), observedAt: () => new Date().toISOString() });

async function main() {
  log(`objects=${objects} rounds=${rounds} observations=${total} workers=${workers} shards=${args.shards} batch=${args.batch} chunk=${args.chunk}`);
  const ctx = await createTestContext('bench');
  const env = { INGEST_SHARDS: args.shards!, INGEST_BATCH_SIZE: args.batch!, LOG_LEVEL: 'info', NODE_ENV: 'production' };
  const config = ctx.config(env);
  const driver = new BullMqQueueDriver(
    { redisUrl: ctx.redisUrl, prefix: ctx.prefix, ingestShards: config.queue.ingestShards, attempts: 3, lockDurationMs: 30_000 },
    createLogger('warn'),
  );
  const producer = new IngestProducer(driver, config.queue, { sensitiveKinds: config.capture.sensitiveKinds, hashKey: resolveSensitiveHashKey(config.capture.hashKey) });
  const db = new pg.Client({ connectionString: ctx.database.url });
  await db.connect();
  const count = async (sql: string) => Number((await db.query(sql)).rows[0].n);
  const children: ChildProcess[] = [];
  try {
    const up: Promise<void>[] = [];
    for (let w = 0; w < workers; w++) {
      const child = spawnRole(ctx, 'worker', env, { stdout: 'pipe' });
      children.push(child);
      // Pass warnings and errors through, and wait for "worker consuming".
      child.stdout!.on('data', (d: Buffer) => {
        for (const line of d.toString().split('\n')) if (/"level":"(warn|error|fatal)"/.test(line)) process.stderr.write(`${line}\n`);
      });
      up.push(stdoutLine(child, 'worker consuming'));
    }
    await Promise.all(up);
    // CPU is counted from here, so the workers' boot (Node, Nest, Postgres, Redis) is left out.
    const cpuAtStart = children.map((c) => cpuSeconds(c.pid!));
    const benchCpuAtStart = process.cpuUsage();
    const started = Date.now();
    let enqueued = 0;
    let lastLog = 0;
    const progress = async () => {
      if (Date.now() - lastLog < 2000) return;
      lastLog = Date.now();
      const seen = await count(`SELECT count(*) AS n FROM observations_seen`);
      const s = (Date.now() - started) / 1000;
      log(`${s.toFixed(0)} s: enqueued ${enqueued}/${total}, ingested ${seen} (${Math.round(seen / s)}/s), heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MiB`);
    };
    for (const chunk of stream()) {
      // Back-pressure: keep at most ~40 jobs waiting so Redis holds a bounded amount.
      while ((await driver.pending('ingest')) > 40) {
        await progress();
        await new Promise((r) => setTimeout(r, 20));
      }
      await producer.enqueue(chunk);
      enqueued += chunk.length;
      await progress();
    }
    while ((await count(`SELECT count(*) AS n FROM observations_seen`)) < total) {
      await progress();
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (Date.now() - started) / 1000;
    const workerRss = children.map((c) => peakRssMiB(c.pid!));
    const workerCpu = children.reduce((sum, c, i) => sum + cpuSeconds(c.pid!) - cpuAtStart[i]!, 0);
    const benchCpu = process.cpuUsage(benchCpuAtStart);
    const events = await count(`SELECT count(*) AS n FROM events`);
    const lag = (await db.query(`SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM recorded_at - observed_at)) AS p FROM events`)).rows[0].p as number[];
    const sizes = (await db.query(`
      SELECT sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname LIKE 'events%') AS events,
             sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname = 'blobs') AS blobs,
             sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname = 'observations_seen') AS seen,
             sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname = 'objects') AS objects
      FROM pg_class c WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace`)).rows[0];
    const bytes = { events: Number(sizes.events), blobs: Number(sizes.blobs), seen: Number(sizes.seen), objects: Number(sizes.objects) };

    // The same event rows again, with a plain COPY into a table with the same three indexes.
    const dump: Buffer[] = [];
    await pipeline(db.query(copyStreams.to(`COPY (SELECT * FROM events ORDER BY seq) TO STDOUT`)), async function* (src: AsyncIterable<Buffer>) {
      for await (const b of src) dump.push(b);
    });
    await db.query(`CREATE TABLE copy_events (LIKE events INCLUDING DEFAULTS)`);
    await db.query(`ALTER TABLE copy_events ADD CONSTRAINT pk_copy_events PRIMARY KEY (seq, observed_at)`);
    await db.query(`CREATE INDEX idx_copy_events_object_seq ON copy_events (object_id, seq)`);
    await db.query(`CREATE INDEX idx_copy_events_xid_seq ON copy_events (xid, seq)`);
    const copyStart = Date.now();
    await pipeline(Readable.from(dump), db.query(copyStreams.from(`COPY copy_events FROM STDIN`)));
    const copySeconds = (Date.now() - copyStart) / 1000;

    const r = {
      machine: `${(await import('node:os')).cpus().length} cores, Node ${process.version}`,
      observations: total,
      events,
      unchanged: total - events,
      seconds: Number(seconds.toFixed(2)),
      observationsPerSecond: Math.round(total / seconds),
      eventsPerSecond: Math.round(events / seconds),
      ingestLagP50Seconds: Number(lag[0]!.toFixed(3)),
      ingestLagP99Seconds: Number(lag[1]!.toFixed(3)),
      bytesPerEvent: {
        all: Math.round((bytes.events + bytes.blobs + bytes.seen + bytes.objects) / events),
        events: Math.round(bytes.events / events),
        blobs: Math.round(bytes.blobs / events),
        observationsSeen: Math.round(bytes.seen / events),
        objects: Math.round(bytes.objects / events),
      },
      // Less sensitive to the machine's load than the rates: CPU time per observation, workers summed.
      cpuMicrosecondsPerObservation: {
        workers: Math.round((workerCpu * 1e6) / total),
        producer: Math.round((benchCpu.user + benchCpu.system) / total),
      },
      heapMiB: { bench: Math.round(process.memoryUsage().heapUsed / 2 ** 20), workerPeakRssMiB: workerRss },
      copy: { rows: events, seconds: Number(copySeconds.toFixed(2)), rowsPerSecond: Math.round(events / copySeconds) },
      pipelineVsCopy: `${(events / seconds / (events / copySeconds) * 100).toFixed(1)} % of COPY's rows/s (events), ${(total / seconds / (events / copySeconds) * 100).toFixed(1)} % counting observations`,
    };
    console.log(JSON.stringify(r, null, 2));
  } finally {
    await Promise.all(children.map(stopProcess));
    await driver.close();
    await db.end();
    await ctx.dispose();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
