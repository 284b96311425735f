// npm run bench:pipeline -- [--objects 20000] [--kinds configmaps|all] [--page-size 5000] [--verify 200]
//                            [--churn-seconds 0 --writes 200] [--second-event] [--workers 1] [--cpu-prof DIR] [--keep-database]
//                            [--value-bytes 0]
//
// The whole service end to end, watcher list included: a sandbox in this process holds N small
// objects (ConfigMaps, or the 10 kinds of bench:watch with `--kinds all`); the BUILT roles run as
// child processes on a throw-away database and Redis prefix (`node dist/apps/main.js worker`, `api`,
// then `watcher`). The clock starts when the watcher is spawned and stops when every object is
// answerable in the API: listed by `GET /v1/objects` (which reads the ownership projection, the row
// `fields`, `ownership` and `explain` answer from), checked at the end by `GET /v1/objects/{id}/ownership`
// naming the manager `bench` for `--verify` random objects. Prints objects/s end to end; the split
// (initial list from the watcher's /metrics, all enqueued, all appended = events in Postgres, all
// projected = ownership_states rows, all listed by the API); each process's CPU seconds and peak RSS;
// the database's bytes per object per table. Baselines of the same run: the sandbox's fill rate and a
// plain HTTP list of the sandbox from this process (the ceiling the sandbox itself can serve).
// `--churn-seconds S --writes W`: afterwards W merge patches/s to random objects for S seconds, and the
// lag from a write to the API answering its value (p50/p90/p99/max over about 50 probed writes a second).
// `--second-event`: after the list, one merge patch to every object, then the sizes again (bytes per
// object after two events each, and what the second added per table).
// `--workers N`: N worker processes share the ingest lanes (as `docker-compose.yml` runs 2).
// `--value-bytes N`: each ConfigMap also holds a value of N bytes (large objects: dashboards, bundles;
// with `--kinds configmaps` only). The roles take the bench's environment, so INGEST_BATCH_BYTES=… set
// there compares job sizes in one build.
// Needs the machine's Postgres and Redis (TEST_DATABASE_ADMIN_URL, TEST_REDIS_URL), like the tests.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SANDBOX_ADMIN_TOKEN, startSandbox, type ResourceType, type Sandbox } from '../libs/sandbox/src/index.js';
import { createTestContext, freePort, waitFor, type TestContext } from '../libs/testing/src/index.js';
import {
  BENCH_KINDS, cpuSeconds, fillSandbox, postgresCpuSeconds, machine, metric, pct, peakRssMiB, resourcesInclude, seededRandom, spawnRole, stdoutLine, stopProcess, type BenchKind,
} from './bench-support.js';

const { values: args } = parseArgs({
  options: {
    objects: { type: 'string', default: '20000' },
    kinds: { type: 'string', default: 'configmaps' },
    // The sandbox copies the whole collection for every page (bench:watch): small pages make it the limit.
    'page-size': { type: 'string', default: '5000' },
    verify: { type: 'string', default: '200' },
    'churn-seconds': { type: 'string', default: '0' },
    writes: { type: 'string', default: '200' },
    // Worker processes sharing the ingest lanes (INGEST_SHARDS, 4 by default, caps how many can work at once).
    workers: { type: 'string', default: '1' },
    // Write a V8 CPU profile of each role into this folder when it exits (open it in Chrome's DevTools); BENCH_CPU_PROF=DIR does the same.
    'cpu-prof': { type: 'string' },
    // After the list: one more event for every object, and the database's size again.
    'second-event': { type: 'boolean', default: false },
    // Leave the database (and the Redis keys) in place for inspection; its URL is printed.
    'keep-database': { type: 'boolean', default: false },
    'value-bytes': { type: 'string', default: '0' },
  },
});
if (args.kinds !== 'configmaps' && args.kinds !== 'all') throw new Error(`--kinds must be configmaps or all, not ${args.kinds}`);
const VALUE_BYTES = Number(args['value-bytes']);
if (VALUE_BYTES > 0 && args.kinds !== 'configmaps') throw new Error('--value-bytes needs --kinds configmaps');
const KINDS: readonly BenchKind[] =
  args.kinds === 'all' ? BENCH_KINDS
  : VALUE_BYTES > 0 ? [{ ...BENCH_KINDS[0]!, body: (n) => { const b = BENCH_KINDS[0]!.body(n) as { data: Record<string, string> }; return { ...b, data: { ...b.data, large: 'x'.repeat(VALUE_BYTES) } }; } }]
  : BENCH_KINDS.slice(0, 1);
const OBJECTS = Number(args.objects);
const PAGE_SIZE = Number(args['page-size']);
const VERIFY = Number(args.verify);
const CHURN_SECONDS = Number(args['churn-seconds']);
const WRITES_PER_SECOND = Number(args.writes);
const SECOND_EVENT = args['second-event']!;
const WORKERS = Number(args.workers);
if (!Number.isInteger(WORKERS) || WORKERS < 1) throw new Error(`--workers must be a whole number of at least 1, not ${args.workers}`);
const POLL_MS = 200;
/**
 * The pause before the second event's next count probe: POLL_MS, or ten times the last probe's time
 * where that is longer (each probe counts two whole tables, 70–90 ms at 50,000 objects: the
 * benchmark's own load on Postgres stays under a tenth of a core). The list's probes keep POLL_MS,
 * as in earlier rounds' figures.
 */
const pollPause = (lastProbeMs: number): number => Math.max(POLL_MS, 10 * lastProbeMs);
const PROBES_PER_SECOND = 50;

const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rate = (n: number, ms: number) => Math.round(n / (ms / 1000)).toLocaleString('en-US');

interface Role {
  readonly name: string;
  readonly child: ChildProcess;
  /** CPU seconds when the watcher was spawned (boot excluded for worker and api). */
  cpuAtStart: number;
}

function startRole(ctx: TestContext, role: 'worker' | 'api' | 'watcher', env: Record<string, string>, name: string = role): Role {
  const child = spawnRole(ctx, role, env, { stdout: 'pipe', cpuProfDir: args['cpu-prof'], cpuProfName: `${name.replace(' ', '-')}.cpuprofile` });
  return { name, child, cpuAtStart: 0 };
}

/** Lists every kind over the sandbox's HTTP API from this process, paging like the watcher: the sandbox's own list rate. */
async function listSandbox(sb: Sandbox, rts: readonly { group: string; version: string; plural: string }[]): Promise<number> {
  let items = 0;
  for (const rt of rts) {
    const base = `${sb.url}${rt.group ? `/apis/${rt.group}` : '/api'}/${rt.version}/${rt.plural}?limit=${PAGE_SIZE}`;
    let cont: string | undefined;
    do {
      const res = await fetch(cont ? `${base}&continue=${encodeURIComponent(cont)}` : base, { headers: { authorization: `Bearer ${SANDBOX_ADMIN_TOKEN}` } });
      const body = (await res.json()) as { items: unknown[]; metadata: { continue?: string } };
      items += body.items.length;
      cont = body.metadata.continue || undefined;
    } while (cont);
  }
  return items;
}

interface ListedObject {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
}

/** Every live object the API lists, page by page. */
async function apiObjects(api: string): Promise<ListedObject[]> {
  const out: ListedObject[] = [];
  let cursor: string | null = null;
  do {
    const res = await fetch(`${api}/v1/objects?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (res.status !== 200) throw new Error(`/v1/objects answered ${res.status}`);
    const page = (await res.json()) as { items: (ListedObject & { deleted: boolean })[]; nextCursor: string | null };
    for (const o of page.items) if (!o.deleted) out.push({ id: o.id, kind: o.kind, name: o.name });
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

async function main(): Promise<void> {
  const load = loadavg();
  console.log(`machine: ${machine()}; load average at start ${load.map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`objects: ${OBJECTS} (${KINDS.map((k) => k.plural).join(', ')}${VALUE_BYTES > 0 ? `, each with a value of ${VALUE_BYTES} bytes` : ''}); watcher page size ${PAGE_SIZE}; 1 watcher, ${WORKERS} worker${WORKERS > 1 ? 's' : ''}, 1 api (built), Postgres and Redis local`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-pipeline-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const sb = await startSandbox({ port: 0, kubeconfigPath: kubeconfig, historySize: 200_000 });
  const ctx = await createTestContext('bench_pipeline');
  const db = new pg.Client({ connectionString: ctx.database.url });
  await db.connect();
  const roles: Role[] = [];
  try {
    const perKind = Math.ceil(OBJECTS / KINDS.length);
    const { rts, seconds: fillSeconds } = fillSandbox(sb.cluster, KINDS, perKind);
    // Objects the sandbox held before the fill (none of these kinds today) count too: the watcher lists them.
    const expected = rts.reduce((n, rt) => n + sb.cluster.list(rt, undefined).items.length, 0);
    const listStart = performance.now();
    const listed = await listSandbox(sb, KINDS);
    const sandboxListMs = performance.now() - listStart;
    if (listed !== expected) throw new Error(`the sandbox listed ${listed} objects, expected ${expected}`);
    console.log(`baselines (this process): sandbox fill ${perKind * KINDS.length} objects in ${fillSeconds.toFixed(1)} s (${rate(perKind * KINDS.length, fillSeconds * 1000)}/s); ` +
      `plain HTTP list of the sandbox, same page size, JSON parsed: ${expected} objects in ${s(sandboxListMs)} (${rate(expected, sandboxListMs)}/s)`);

    const apiPort = await freePort();
    const api = `http://127.0.0.1:${apiPort}`;
    const watcherPort = await freePort();
    const watcherUrl = `http://127.0.0.1:${watcherPort}`;
    const workers = Array.from({ length: WORKERS }, (_, i) => startRole(ctx, 'worker', { LOG_LEVEL: 'info' }, i === 0 ? 'worker' : `worker ${i + 1}`));
    roles.push(...workers);
    const apiRole = startRole(ctx, 'api', { PORT: String(apiPort), API_RATE_LIMIT: '0' });
    roles.push(apiRole);
    for (const worker of workers) await stdoutLine(worker.child, 'worker consuming');
    await waitFor('the api', async () => (await fetch(`${api}/readyz`).catch(() => null))?.status === 200, 120_000, 200);
    log('worker and api up; starting the watcher');

    const started = performance.now();
    for (const worker of workers) worker.cpuAtStart = cpuSeconds(worker.child.pid!);
    apiRole.cpuAtStart = cpuSeconds(apiRole.child.pid!);
    const benchCpuAtStart = process.cpuUsage();
    const postgresCpuAtStart = postgresCpuSeconds();
    let probeMs = 0;
    const watcher = startRole(ctx, 'watcher', {
      KUBECONFIG: kubeconfig,
      WATCHER_PORT: String(watcherPort),
      LEADER_ELECTION: 'false',
      RESOURCES_INCLUDE: resourcesInclude(KINDS),
      WATCH_PAGE_SIZE: String(PAGE_SIZE),
    });
    roles.push(watcher);
    watcher.child.stdout!.resume();

    const at: Record<'ready' | 'enqueued' | 'firstAppended' | 'appended' | 'firstProjected' | 'projected' | 'answerable', number | undefined> = {
      ready: undefined, enqueued: undefined, firstAppended: undefined, appended: undefined, firstProjected: undefined, projected: undefined, answerable: undefined,
    };
    let initialListSeconds = NaN;
    let walks = 0;
    let walkStartedAt = 0;
    let objects: ListedObject[] = [];
    let lastLog = started;
    while (at.answerable === undefined) {
      const now = () => performance.now() - started;
      if (at.ready === undefined && (await fetch(`${watcherUrl}/readyz`).catch(() => null))?.status === 200) at.ready = now();
      if (at.enqueued === undefined) {
        const text = await fetch(`${watcherUrl}/metrics`).then((r) => r.text(), () => '');
        if (metric(text, 'ssa_audit_watch_observations_enqueued_total') >= expected) {
          at.enqueued = now();
          initialListSeconds = metric(text, 'ssa_audit_watch_initial_list_seconds');
        }
      }
      const probeStarted = performance.now();
      const [counts] = (await db.query(`SELECT (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM ownership_states)::int AS states`)).rows;
      probeMs += performance.now() - probeStarted;
      if (at.firstAppended === undefined && counts.events > 0) at.firstAppended = now();
      if (at.firstProjected === undefined && counts.states > 0) at.firstProjected = now();
      if (at.appended === undefined && counts.events >= expected) at.appended = now();
      if (at.projected === undefined && counts.states >= expected) at.projected = now();
      if (at.projected !== undefined) {
        walks++;
        walkStartedAt = now();
        objects = await apiObjects(api);
        if (objects.length >= expected) at.answerable = now();
      }
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        log(`${s(now())}: ${counts.events} events, ${counts.states} projected of ${expected}`);
      }
      if (now() > 600_000) throw new Error(`not every object answerable after 10 minutes (${counts.events} events, ${counts.states} states)`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const total = at.answerable;
    const cpu = roles.map((r) => ({ name: r.name, cpu: cpuSeconds(r.child.pid!) - r.cpuAtStart, rss: peakRssMiB(r.child.pid!) }));
    const benchCpu = process.cpuUsage(benchCpuAtStart);
    const postgresCpu = postgresCpuSeconds() - postgresCpuAtStart;

    // The sample: each one's ownership tree names the manager that created it.
    const random = seededRandom(7);
    for (let i = 0; i < Math.min(VERIFY, objects.length); i++) {
      const o = objects[Math.floor(random() * objects.length)]!;
      const res = await fetch(`${api}/v1/objects/${o.id}/ownership`);
      const text = await res.text();
      if (res.status !== 200 || !text.includes('"manager":"bench"')) throw new Error(`${o.kind}/${o.name} (${o.id}): ownership answered ${res.status} without manager bench`);
    }

    console.log(`\nend to end: ${expected} objects answerable ${s(total)} after the watcher was spawned → ${rate(expected, total)} objects/s`);
    console.log(`  ("answerable": listed by GET /v1/objects, which reads the ownership projection; ${Math.min(VERIFY, objects.length)} random ones' GET /v1/objects/{id}/ownership checked to name manager bench; polled every ${POLL_MS} ms; ${walks} walk(s) of the API's pages, the last ${s(total - walkStartedAt)} for ${Math.ceil(expected / 500)} pages of 500: ` +
      `to the projection's last row ${rate(expected, at.projected!)} objects/s)`);
    const split: [string, number | undefined][] = [
      ['watcher ready (every resource listed, /readyz)', at.ready],
      ['all observations enqueued (watcher /metrics)', at.enqueued],
      ['first event appended', at.firstAppended],
      ['all events appended (count of events in Postgres)', at.appended],
      ['first object projected', at.firstProjected],
      ['all projected (count of ownership_states)', at.projected],
      ['all listed by the API', at.answerable],
    ];
    console.log(`| step (time since the watcher was spawned) | s | objects/s to here |`);
    console.log(`| --- | ---: | ---: |`);
    for (const [name, t] of split) console.log(`| ${name} | ${t === undefined ? '—' : (t / 1000).toFixed(2)} | ${t === undefined || name.startsWith('first') ? '' : rate(expected, t)} |`);
    const span = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? NaN : b - a);
    console.log(`stage rates (first to last, overlapping): ingest ${rate(expected, span(at.firstAppended, at.appended))} events/s, projection ${rate(expected, span(at.firstProjected, at.projected))} objects/s`);
    console.log(`watcher's own initial list time (ssa_audit_watch_initial_list_seconds, first request to last resource listed): ${initialListSeconds.toFixed(2)} s; ` +
      `so its boot (spawn to the first list request: Node, Nest, Postgres, Redis, discovery) took about ${s(at.ready! - initialListSeconds * 1000)}; ` +
      `without it, end to end ${rate(expected, total - (at.ready! - initialListSeconds * 1000))} objects/s`);
    console.log(`ratios: end to end ÷ the sandbox's plain HTTP list ${(sandboxListMs / total).toFixed(3)}; ÷ the sandbox's fill ${((fillSeconds * 1000) / total).toFixed(3)}`);
    console.log(`| process | CPU s (from the watcher's spawn; watcher boot included) | CPU µs per object | peak RSS MiB |`);
    console.log(`| --- | ---: | ---: | ---: |`);
    for (const r of cpu) console.log(`| ${r.name} | ${r.cpu.toFixed(1)} | ${Math.round((r.cpu * 1e6) / expected)} | ${r.rss} |`);
    const benchSeconds = (benchCpu.user + benchCpu.system) / 1e6;
    console.log(`| bench (sandbox serving the list + polling) | ${benchSeconds.toFixed(1)} | ${Math.round((benchSeconds * 1e6) / expected)} | ${Math.round(process.resourceUsage().maxRSS / 1024)} |`);
    console.log(`| postgres (every backend, the bench's probes included) | ${postgresCpu.toFixed(1)} | ${Math.round((postgresCpu * 1e6) / expected)} | |`);
    console.log(`(the bench's count probes took ${s(probeMs)} of wall time in Postgres; the machine has ${cpus().length} cores: ${((total / 1000) * cpus().length).toFixed(1)} core-seconds in the run)`);

    const afterList = await printSizes(db, 'after the list', expected);
    if (SECOND_EVENT) await secondEvent(sb, rts, objects, db, expected, afterList, roles);

    if (CHURN_SECONDS > 0) await churn(sb, rts, objects, api);
  } finally {
    for (const r of roles.reverse()) await stopProcess(r.child);
    await db.end();
    await sb.close();
    if (args['keep-database']) console.log(`database kept: ${ctx.database.url} (Redis prefix ${ctx.prefix})`);
    else await ctx.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A merge patch of the object's label `rev` by manager bench-writer (its body and its managedFields change). */
function labelRev(sb: Sandbox, rts: readonly ResourceType[], object: ListedObject, rev: number): void {
  const resource = rts[KINDS.findIndex((k) => k.kind === object.kind)]!;
  sb.cluster.patch({ resource, namespace: 'default', name: object.name }, '', 'merge', JSON.stringify({ metadata: { labels: { rev: String(rev) } } }), { fieldManager: 'bench-writer' });
}

/** Bytes per table (indexes and TOAST included, partitions summed under their table), printed per object. */
async function printSizes(db: pg.Client, when: string, expected: number): Promise<Map<string, number>> {
  const sizes: { table: string; bytes: string }[] = (await db.query(
    `SELECT coalesce(p.relname, c.relname) AS table, sum(pg_total_relation_size(c.oid))::bigint AS bytes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class p ON p.oid = i.inhparent
     WHERE n.nspname = 'public' AND c.relkind = 'r'
     GROUP BY 1 ORDER BY 2 DESC`,
  )).rows;
  const all = sizes.reduce((n, r) => n + Number(r.bytes), 0);
  console.log(`database ${when} (tables with their indexes and TOAST, partitions summed under their table): ${(all / 2 ** 20).toFixed(1)} MiB = ${Math.round(all / expected)} bytes per object`);
  console.log(`| table | bytes | bytes per object |`);
  console.log(`| --- | ---: | ---: |`);
  for (const r of sizes) if (Number(r.bytes) >= 16_384) console.log(`| ${r.table} | ${Number(r.bytes).toLocaleString('en-US')} | ${Math.round(Number(r.bytes) / expected)} |`);
  console.log(`(tables under 16 KiB left out; their sum is in the total)`);
  return new Map([...sizes.map((r): [string, number] => [r.table, Number(r.bytes)]), ['(all)', all]]);
}

/**
 * `--second-event`: one merge patch to every object (a label, by another manager: both its body
 * and its managedFields change), then the sizes again once every object's second event is
 * projected, and what the second event added per object.
 */
async function secondEvent(
  sb: Sandbox, rts: readonly ResourceType[], objects: readonly ListedObject[], db: pg.Client, expected: number, before: Map<string, number>, roles: readonly Role[],
): Promise<void> {
  const cpuBefore = roles.map((r) => cpuSeconds(r.child.pid!));
  const postgresBefore = postgresCpuSeconds();
  const benchBefore = process.cpuUsage();
  const started = performance.now();
  for (const object of objects) labelRev(sb, rts, object, 1);
  const written = performance.now() - started;
  let appended = NaN;
  let probeMs = 0;
  let maxPauseMs = POLL_MS;
  for (;;) {
    const probeStarted = performance.now();
    // One statement, one snapshot: an append folds its objects in its own transaction, so both counts can complete together.
    const [counts] = (await db.query(
      `SELECT (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM ownership_states WHERE last_seq > first_seq)::int AS states`,
    )).rows;
    const lastProbeMs = performance.now() - probeStarted;
    probeMs += lastProbeMs;
    if (Number.isNaN(appended) && counts.events >= 2 * objects.length) appended = performance.now() - started;
    if (counts.states >= objects.length) break;
    if (performance.now() - started > 600_000) throw new Error(`second event: not every object projected after 10 minutes (${counts.events} events, ${counts.states} states)`);
    const pause = pollPause(lastProbeMs);
    maxPauseMs = Math.max(maxPauseMs, pause);
    await new Promise((r) => setTimeout(r, pause));
  }
  const projected = performance.now() - started;
  const benchCpu = process.cpuUsage(benchBefore);
  const postgresCpu = postgresCpuSeconds() - postgresBefore;
  console.log(`\nsecond event: ${objects.length} merge patches (a label, by manager bench-writer) written in ${s(written)}, all appended ${s(appended)} and all projected ${s(projected)} after the first write ` +
    `(${rate(objects.length, projected)} events/s)`);
  const perEvent = (seconds: number) => Math.round((seconds * 1e6) / objects.length);
  console.log(`its CPU, µs per event: ` + [
    ...roles.map((r, i) => `${r.name} ${perEvent(cpuSeconds(r.child.pid!) - cpuBefore[i]!)}`),
    `postgres ${perEvent(postgresCpu)}`,
    `bench (the sandbox's writes and watch streams, polling) ${perEvent((benchCpu.user + benchCpu.system) / 1e6)}`,
  ].join(', ') + ` (the bench's count probes, every ${POLL_MS}–${Math.round(maxPauseMs)} ms, took ${s(probeMs)} of wall time in Postgres, in its figure)`);
  const after = await printSizes(db, 'after two events per object', expected);
  console.log(`the second event added ${Math.round((after.get('(all)')! - before.get('(all)')!) / expected)} bytes per object: ` +
    [...after].filter(([t]) => t !== '(all)').map(([t, b]): [string, number] => [t, Math.round((b - (before.get(t) ?? 0)) / expected)]).filter(([, d]) => d !== 0).map(([t, d]) => `${t} ${d}`).join(', '));
}

/**
 * W merge patches a second (`metadata.labels.rev` = the write's number) to random objects for S
 * seconds. Every k-th write is a probe (about PROBES_PER_SECOND of them a second, so the polling
 * stays small beside the load): four clients poll `fields?path=.metadata.labels.rev` of the pending
 * probes in turn, and a probe is answered when the API shows its number or a later one on that object.
 * Its lag is counted to the poll that saw it; the time since its previous poll is the uncertainty.
 */
async function churn(sb: Sandbox, rts: readonly ResourceType[], objects: readonly ListedObject[], api: string): Promise<void> {
  const every = Math.max(1, Math.round(WRITES_PER_SECOND / PROBES_PER_SECOND));
  const random = seededRandom(11);
  const pending: { rev: number; object: ListedObject; at: number; polledAt: number }[] = [];
  const lags: number[] = [];
  const uncertainties: number[] = [];
  const start = performance.now();
  let writes = 0;
  let writing = true;
  const path = encodeURIComponent('.metadata.labels.rev');
  const poller = async () => {
    while (writing || pending.length > 0) {
      const w = pending.shift();
      if (!w) {
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      const polledAt = performance.now();
      const res = await fetch(`${api}/v1/objects/${w.object.id}/fields?path=${path}`);
      const body = (await res.json()) as { value?: unknown };
      if (res.status === 200 && Number(body.value) >= w.rev) {
        lags.push(polledAt - w.at);
        uncertainties.push(polledAt - w.polledAt);
      } else pending.push({ ...w, polledAt });
      if (performance.now() - start > (CHURN_SECONDS + 120) * 1000) throw new Error(`${pending.length} probes not answered 120 s after the churn`);
    }
  };
  const pollers = Array.from({ length: 4 }, poller);
  while (performance.now() - start < CHURN_SECONDS * 1000) {
    const due = Math.floor(((performance.now() - start) / 1000) * WRITES_PER_SECOND);
    for (; writes < due; writes++) {
      const object = objects[Math.floor(random() * objects.length)]!;
      const rev = writes + 1;
      labelRev(sb, rts, object, rev);
      if (rev % every === 0) pending.push({ rev, object, at: performance.now(), polledAt: performance.now() });
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const lastWrite = performance.now();
  writing = false;
  await Promise.all(pollers);
  lags.sort((a, b) => a - b);
  uncertainties.sort((a, b) => a - b);
  const f = (xs: number[], p: number) => (pct(xs, p) / 1000).toFixed(2);
  console.log(`
churn: ${writes} merge patches in ${CHURN_SECONDS} s (${(writes / CHURN_SECONDS).toFixed(0)}/s offered) to random objects; every ${every}. write probed (${lags.length} probes)`);
  console.log(`  lag from the write to the API answering it: p50 ${f(lags, 0.5)} s, p90 ${f(lags, 0.9)} s, p99 ${f(lags, 0.99)} s, max ${(lags[lags.length - 1]! / 1000).toFixed(2)} s; ` +
    `the last probe answered ${s(performance.now() - lastWrite)} after the last write`);
  console.log(`  (polling resolution: time since a probe's previous poll, p50 ${f(uncertainties, 0.5)} s, p99 ${f(uncertainties, 0.99)} s: each lag is at most that much too long)`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
