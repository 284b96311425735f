// npm run bench:walk -- [--objects 400] [--kb 1000] [--rounds 2]
// npm run bench:walk -- --history 20000 [--kb 10] [--rounds 2]
// npm run bench:walk -- --cluster-objects 3000 [--rounds 2]
//
// Large objects through the projector's walk of the log (what `replay all` and every event an append
// did not fold go through): N ConfigMaps of about K KB each are appended without folding to a throw-away
// database, then everything is replayed into a fresh generation, alternately with pages cut by count
// alone (500 events) and with the walk's default bound on the bodies a page rebuilds (16 MiB). Each
// replay runs in a process of its own (this script with --child), which reports its time and its peak
// RSS (`process.resourceUsage().maxRSS`) and its RSS before the replay. Prints both and the ratios.
// `--history N`: instead, ONE ConfigMap of about K KB with N events (each a new value of its data, as
// a busy object's history), replayed alone (`replay object`: a CRD's schema arriving, an object the
// log gave out of order), alternately in one page (its whole history at once, as before one-object
// replays were paged) and in the walk's pages (500 events, 16 MiB of bodies).
// `--cluster-objects N`: instead, N Deployments of one cluster with 3 events each (created, scaled by
// an HPA, scaled again), appended and folded as the service does, then `replay cluster` (what
// `POST /v1/replays` with that scope runs, and what a CRD's schema arriving after its objects runs
// for them) in a process of its own, `--rounds` times: its time, objects/s and peak RSS.
// Needs the machine's Postgres (TEST_DATABASE_ADMIN_URL), like the tests.
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import { loadavg } from 'node:os';
import type { Observation } from '../libs/common/src/index.js';
import { loadConfig } from '../libs/config/src/index.js';
import { createDataSource, EventAppender } from '../libs/store/src/index.js';
import { foldingAppender, projectorOn } from '../libs/store/src/testing/worker-use-cases.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, scaledBy } from '../libs/testing/src/index.js';
import { machine } from './bench-support.js';

const { values: args } = parseArgs({
  options: {
    objects: { type: 'string', default: '400' },
    kb: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '2' },
    // Internal: replay the database at this URL once, with this page bound, and print the figures as JSON.
    child: { type: 'string' },
    'page-body-bytes': { type: 'string' },
    'page-size': { type: 'string' },
    history: { type: 'string' },
    'cluster-objects': { type: 'string' },
    // Internal: the child replays this cluster.
    cluster: { type: 'string' },
    // Internal: the child replays this object alone.
    object: { type: 'string' },
  },
});
const OBJECTS = Number(args.objects);
const KB = Number(args.kb);
const ROUNDS = Number(args.rounds);
const HISTORY = args.history === undefined ? 0 : Number(args.history);
if (!Number.isInteger(HISTORY) || HISTORY < 0) throw new Error(`--history must be a whole number, not ${args.history}`);
const CLUSTER_OBJECTS = args['cluster-objects'] === undefined ? 0 : Number(args['cluster-objects']);
if (!Number.isInteger(CLUSTER_OBJECTS) || CLUSTER_OBJECTS < 0) throw new Error(`--cluster-objects must be a whole number, not ${args['cluster-objects']}`);
if (CLUSTER_OBJECTS > 0 && HISTORY > 0) throw new Error('--cluster-objects and --history are two modes: give one');

const configMap = (i: number): Observation => ({
  cluster: 'bench', resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, type: 'ADDED', source: 'watch', observedAt: new Date().toISOString(),
  object: {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: {
      uid: `walk-${i}`, name: `dashboard-${i}`, namespace: 'default', resourceVersion: '1',
      managedFields: [{ manager: 'bench', operation: 'Update', apiVersion: 'v1', time: '2026-11-28T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:dashboard': {} } } }],
    },
    data: { dashboard: `${i}:` + 'x'.repeat(KB * 1000) },
  },
});

/** The `n`th version (1, 2, …) of the one object of `--history`: its data and its manager's time change each time. */
const historyEvent = (n: number): Observation => {
  const o = configMap(0);
  const metadata = { ...o.object.metadata, uid: 'history', name: 'busy', resourceVersion: String(n) };
  metadata.managedFields = [{ ...metadata.managedFields![0]!, time: new Date(Date.UTC(2026, 10, 28, 10) + n * 10_000).toISOString().replace('.000', '') }];
  return { ...o, type: n === 1 ? 'ADDED' : 'MODIFIED', object: { ...o.object, metadata, data: { dashboard: `${n}:` + 'x'.repeat(KB * 1000) } } };
};

/** One replay in this process (`--child URL`): prints its seconds, peak RSS and RSS before it, as JSON. */
async function child(url: string): Promise<void> {
  const ds = await createDataSource(url, 4).initialize();
  try {
    const before = process.memoryUsage().rss;
    const t0 = performance.now();
    const bound = args['page-body-bytes'] ? Number(args['page-body-bytes']) : undefined;
    const pageSize = args['page-size'] ? Number(args['page-size']) : undefined;
    const projector = projectorOn(ds, { pageBodyBytes: bound, pageSize });
    const r = await projector.replay(args.object ? { kind: 'object', objectId: args.object } : args.cluster ? { kind: 'cluster', cluster: args.cluster } : { kind: 'all' });
    const seconds = (performance.now() - t0) / 1000;
    console.log(JSON.stringify({ seconds, objects: r.objects, peakMiB: (process.resourceUsage().maxRSS * 1024) / 2 ** 20, beforeMiB: before / 2 ** 20 }));
  } finally {
    await ds.destroy();
  }
}

async function main(): Promise<void> {
  const db = await createTestDatabase('bench_walk');
  const ds = await createDataSource(db.url, 4).initialize();
  try {
    console.log(`machine: ${machine()}; load average at start ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const appender = new EventAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture, null);
    let objectId: string | undefined;
    if (CLUSTER_OBJECTS > 0) {
      await clusterReplays(db.url, ds);
      return;
    }
    if (HISTORY > 0) {
      console.log(`one ConfigMap of about ${KB} KB with ${HISTORY} events, appended without folding, then replayed alone ${ROUNDS} × 2 times`);
      const started = performance.now();
      for (let n = 1; n <= HISTORY; n += 50) {
        await appender.append(Array.from({ length: Math.min(50, HISTORY - n + 1) }, (_, j) => historyEvent(n + j)));
        if ((n - 1) % 5000 === 0 && n > 1) console.log(`[bench] ${n - 1} events appended (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      }
      const [row]: { id: string; n: string }[] = await ds.query(`SELECT o.id::text AS id, count(e.seq)::text AS n FROM objects o JOIN events e ON e.object_id = o.id WHERE o.uid = 'history' GROUP BY o.id`);
      if (Number(row?.n) !== HISTORY) throw new Error(`stored ${row?.n} events of the object, not ${HISTORY}`);
      objectId = row!.id;
    } else {
      console.log(`objects: ${OBJECTS} ConfigMaps of about ${KB} KB (${((OBJECTS * KB) / 1000).toFixed(0)} MB in all), appended without folding, then replayed ${ROUNDS} × 2 times`);
      for (let i = 0; i < OBJECTS; i += 20) await appender.append(Array.from({ length: Math.min(20, OBJECTS - i) }, (_, j) => configMap(i + j)));
    }
    const variants = objectId
      ? [
          { name: 'one page (the whole history at once)', flags: ['--object', objectId, '--page-size', String(2 ** 31 - 1), '--page-body-bytes', String(2 ** 40)] },
          { name: "the walk's pages (500 events, 16 MiB)", flags: ['--object', objectId] },
        ]
      : [
          { name: 'pages by count alone (500 events)', flags: ['--page-body-bytes', String(2 ** 40)] },
          { name: "pages bounded by their bodies (the walk's default, 16 MiB)", flags: [] as string[] },
        ];
    const expectedObjects = objectId ? 1 : OBJECTS;
    type Run = { seconds: number; objects: number; peakMiB: number; beforeMiB: number };
    const results = new Map<string, Run[]>();
    console.log('| round | pages | replay s | peak RSS MiB | RSS before the replay MiB |\n| ---: | --- | ---: | ---: | ---: |');
    for (let round = 1; round <= ROUNDS; round++) {
      for (const v of variants) {
        const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, '--child', db.url, ...v.flags], { encoding: 'utf8', maxBuffer: 2 ** 24 });
        const run = JSON.parse(out.trim().split('\n').at(-1)!) as Run;
        if (run.objects !== expectedObjects) throw new Error(`replay projected ${run.objects} objects, not ${expectedObjects}`);
        results.set(v.name, [...(results.get(v.name) ?? []), run]);
        console.log(`| ${round} | ${v.name} | ${run.seconds.toFixed(2)} | ${run.peakMiB.toFixed(0)} | ${run.beforeMiB.toFixed(0)} |`);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [a, b] = variants.map((v) => results.get(v.name)!);
    console.log(`${objectId ? 'paged ÷ one page' : 'bounded ÷ by count'} (medians): time ${(median(b!.map((x) => x.seconds)) / median(a!.map((x) => x.seconds))).toFixed(2)}, peak RSS ${(median(b!.map((x) => x.peakMiB)) / median(a!.map((x) => x.peakMiB))).toFixed(2)}`);
  } finally {
    await ds.destroy();
    await db.drop();
  }
}

/** `--cluster-objects N`: N Deployments of 3 events each, folded at append, then `replay cluster` in a child process, `--rounds` times. */
async function clusterReplays(url: string, ds: DataSource): Promise<void> {
  console.log(`objects: ${CLUSTER_OBJECTS} Deployments of cluster "bench" with 3 events each (created, scaled twice), folded at append; then replay cluster ${ROUNDS} times`);
  const appender = foldingAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture);
  for (let i = 0; i < CLUSTER_OBJECTS; i += 100) {
    const created = Array.from({ length: Math.min(100, CLUSTER_OBJECTS - i) }, (_, j) =>
      deploymentObservation({ cluster: 'bench', uid: `replay-${i + j}`, name: `web-${i + j}`, namespace: `ns-${(i + j) % 50}`, resourceVersion: '1', type: 'ADDED' }));
    await appender.append(created);
    await appender.append(created.map((o) => scaledBy(o, 'horizontal-pod-autoscaler', 3, '2')));
    await appender.append(created.map((o) => scaledBy(o, 'horizontal-pod-autoscaler', 5, '3')));
  }
  console.log('| round | replay cluster s | objects/s | ms per object | peak RSS MiB |\n| ---: | ---: | ---: | ---: | ---: |');
  for (let round = 1; round <= ROUNDS; round++) {
    const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, '--child', url, '--cluster', 'bench'], { encoding: 'utf8', maxBuffer: 2 ** 24 });
    const run = JSON.parse(out.trim().split('\n').at(-1)!) as { seconds: number; objects: number; peakMiB: number };
    if (run.objects !== CLUSTER_OBJECTS) throw new Error(`replay projected ${run.objects} objects, not ${CLUSTER_OBJECTS}`);
    console.log(`| ${round} | ${run.seconds.toFixed(2)} | ${Math.round(run.objects / run.seconds)} | ${((run.seconds * 1000) / run.objects).toFixed(2)} | ${run.peakMiB.toFixed(0)} |`);
  }
}

void (args.child ? child(args.child) : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
