// npm run bench:api -- [--objects 20000] [--rounds 9] [--clients 50] [--requests 5000] [--auth none|both] [--auth-namespaces N] [--replay] [--long-history N] [--keep-database]
//
// The ingest bench's synthetic stream (Deployments, ~2 KiB of managedFields, 70 % value changes
// per round) is appended to a throw-away database with the real EventAppender (the queue is left
// out: bench:ingest measures it), folded by the real projector, then the built API role
// (`node dist/apps/main.js api`, one process) answers `--requests` requests of each query from
// `--clients` concurrent HTTP clients in this process. Every tenth object has a finding. Objects are picked at random over all of
// them. `/healthz` goes first: every query's req/s is also printed as a ratio to it (the framework's
// floor, same run), with the api process's CPU milliseconds per request. A query whose first request
// alone takes over 0.5 s (`at=` over every object) is measured with one client and five requests.
// Prints the set-up rates, p50/p90/p99/max latency and throughput per query, and the API's
// CPU time and peak RSS (after each query: which one raised it). `--auth both` then answers the
// same queries again from a second api process with AUTH_MODE=kubernetes (TokenReview and
// SubjectAccessReviews against a sandbox, as a ServiceAccount allowed to get Deployments
// everywhere) and prints each query's req/s as a ratio to the first. `--auth-namespaces N` (with
// `--auth both`): the ServiceAccount may get Deployments in the namespaces ns-0 … ns-(N-1) only
// (a RoleBinding in each) instead of everywhere: a tenant's view of the aggregates.
// `--replay`: after the projection, rebuild every projection from the log (`replay all`, what
// `POST /v1/replays` runs) and print its rate and the minutes it takes per million events.
// `--long-history N` (0, the default: off): after the data set, N more observations of one extra Deployment
// are appended (N events: most change only an annotation the controller owns and the status, every
// LONG_IMAGE_EVERY-th also the image) and two of another one (its image changes once); both are projected
// with the rest and left out of the random picks. Then one api process answers `history` and `explain`
// (the image path, as above) and `fields` (.spec.replicas) on each of the two, from ONE client,
// LONG_REQUESTS sequential requests per query and object (after a warm-up; the 2-event object's, then the
// N-event one's: alternating them, the long answers' garbage is collected during the short ones), and
// prints p50/p99/max and api CPU per request of each and the ratios: whether the answer's time grows
// with the object's history.
// `--keep-database` leaves the bench database in place and prints its URL (to look at the queries' plans).
// BENCH_QUERIES=fields,explain runs only those queries. BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each api process there.
// Needs the machine's Postgres and Redis (TEST_DATABASE_ADMIN_URL, TEST_REDIS_URL), like the tests.
import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import type { Observation } from '../libs/common/src/index.js';
import { deploymentObservation } from '../libs/testing/src/observation.factory.js';
import { loadConfig } from '../libs/config/src/index.js';
import type { AsOf } from '../libs/audit/src/index.js';
import { createDataSource, ManagerCheckpoints, ManagerTotalsCompaction, OwnershipQueries } from '../libs/store/src/index.js';
import { foldingAppender, projectorOn } from '../libs/store/src/testing/worker-use-cases.js';
import { TEST_SENSITIVE_HASH_KEY, createTestContext, freePort, waitFor, type TestContext } from '../libs/testing/src/index.js';
import { KubectlSandbox } from '../libs/testing/src/kubectl-sandbox.js';
import { cpuSeconds, deploymentStream, heapMiB, machine, pct, peakRssMiB, seededRandom, spawnRole, stopProcess } from './bench-support.js';

const { values: args } = parseArgs({
  options: {
    objects: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '9' },
    clients: { type: 'string', default: '50' },
    requests: { type: 'string', default: '5000' },
    auth: { type: 'string', default: 'none' },
    'auth-namespaces': { type: 'string' },
    replay: { type: 'boolean', default: false },
    'long-history': { type: 'string', default: '0' },
    'keep-database': { type: 'boolean', default: false },
  },
});
if (args.auth !== 'none' && args.auth !== 'both') throw new Error(`--auth must be none or both, not ${args.auth}`);
const AUTH_NAMESPACES = args['auth-namespaces'] === undefined ? undefined : Number(args['auth-namespaces']);
if (AUTH_NAMESPACES !== undefined && (!Number.isInteger(AUTH_NAMESPACES) || AUTH_NAMESPACES < 1 || AUTH_NAMESPACES > 50 || args.auth !== 'both')) {
  throw new Error(`--auth-namespaces must be a whole number from 1 to 50, with --auth both; not ${args['auth-namespaces']}`);
}
const OBJECTS = Number(args.objects);
const ROUNDS = Number(args.rounds);
const CLIENTS = Number(args.clients);
const REQUESTS = Number(args.requests);
const LONG_HISTORY = Number(args['long-history']);
if (!Number.isInteger(LONG_HISTORY) || LONG_HISTORY < 0 || LONG_HISTORY === 1) throw new Error(`--long-history must be 0 (off) or a whole number of events over 1, not ${args['long-history']}`);
/** The long-history object changes its image every this many events (the others change an annotation and the status). */
const LONG_IMAGE_EVERY = 50;
/** Sequential requests per query and object of the long-history comparison. */
const LONG_REQUESTS = 300;
/** Every tenth object has a finding (its applier and the HPA co-own `.spec.replicas`), so `findings` lists some. */
const FINDING_EVERY = 10;
/** Which queries run with one client (decided by the first api process measured). */
const slowQueries = new Map<string, boolean>();
/** A query whose first request alone takes longer is measured with one client and at most five requests. */
const SLOW_MS = 500;
const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

/** Round `round` observes its objects one after the other over 50 s of minute `round` (in object order, as they are appended). */
const roundTime = (round: number, index: number) => new Date(Date.UTC(2026, 10, 21, 10, round) + Math.floor((index * 50_000) / OBJECTS)).toISOString();

async function main(): Promise<void> {
  log(`${machine()}; objects=${OBJECTS} rounds=${ROUNDS} clients=${CLIENTS} requests=${REQUESTS}`);
  const ctx = await createTestContext('bench_api');
  const ds = await createDataSource(ctx.database.url, 4).initialize();
  try {
    const appender = foldingAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture);
    let t = performance.now();
    let observations = 0;
    let lastLog = t;
    for (const chunk of deploymentStream({ objects: OBJECTS, rounds: ROUNDS, chunk: 500, observedAt: roundTime, findingEvery: FINDING_EVERY })) {
      await appender.append(chunk);
      observations += chunk.length;
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        log(`appended ${observations} of ${OBJECTS * (ROUNDS + 1)} observations`);
      }
    }
    if (LONG_HISTORY > 0) {
      for (const chunk of longHistoryStream()) await appender.append(chunk);
      observations += LONG_HISTORY + 2;
    }
    const events = Number((await ds.query(`SELECT count(*) AS n FROM events`))[0].n);
    const appendS = (performance.now() - t) / 1000;
    log(`appended ${observations} observations → ${events} events in ${appendS.toFixed(1)} s (${Math.round(observations / appendS)} observations/s)`);

    t = performance.now();
    lastLog = t;
    // Readers stop before the oldest open transaction of the whole server: other databases' transactions are waited out.
    const projected = await projectorOn(ds).catchUp({
      waitForHeldBackMs: 120_000,
      onPage: (r) => {
        if (performance.now() - lastLog < 5000) return;
        lastLog = performance.now();
        log(`projected ${r.events} of ${events} events (${Math.round(r.events / ((performance.now() - t) / 1000))} events/s)`);
      },
    });
    const projectS = (performance.now() - t) / 1000;
    const [sizes] = await ds.query(
      `SELECT pg_total_relation_size('ownership_states') AS states, pg_total_relation_size('ownership_versions') AS versions,
              pg_total_relation_size('field_transitions') AS transitions, (SELECT count(*) FROM ownership_versions) AS version_rows,
              pg_total_relation_size('manager_objects') AS managers, pg_total_relation_size('manager_objects_versions') AS manager_versions,
              (SELECT count(*) FROM manager_objects_versions) AS manager_version_rows,
              pg_total_relation_size('object_findings') AS findings, pg_total_relation_size('findings_versions') AS findings_versions,
              (SELECT count(*) FROM findings_versions) AS findings_version_rows`,
    );
    const mib = (b: string) => (Number(b) / 2 ** 20).toFixed(1);
    log(
      `projected ${projected.events} events in ${projectS.toFixed(1)} s (${Math.round(projected.events / projectS)} events/s); ` +
        `states ${mib(sizes.states)} MiB, versions ${mib(sizes.versions)} MiB (${sizes.version_rows} rows), transitions ${mib(sizes.transitions)} MiB; ` +
        `manager index ${mib(sizes.managers)} MiB, its versions ${mib(sizes.manager_versions)} MiB (${sizes.manager_version_rows} rows); ` +
        `findings ${mib(sizes.findings)} MiB, their versions ${mib(sizes.findings_versions)} MiB (${sizes.findings_version_rows} rows)`,
    );

    if (args.replay) {
      t = performance.now();
      lastLog = t;
      const done = await projectorOn(ds).replay({ kind: 'all' }, (p) => {
        if (performance.now() - lastLog < 5000) return;
        lastLog = performance.now();
        log(`replay: ${p.events} events, ${p.percent} %`);
      });
      const replayS = (performance.now() - t) / 1000;
      const rate = done.events / replayS;
      log(`replayed ${done.events} events of ${done.objects} objects in ${replayS.toFixed(1)} s (${Math.round(rate)} events/s): ${(1e6 / rate / 60).toFixed(1)} min per million events`);
    }

    log(`${Math.ceil(OBJECTS / FINDING_EVERY)} objects have a finding (their applier co-owns .spec.replicas with the HPA)`);
    // The worker folds the manager totals' parts every few seconds; this data set was projected without one.
    t = performance.now();
    const compacted = await new ManagerTotalsCompaction(ds).run();
    log(`manager totals: ${compacted.folded} parts folded into ${compacted.kept} rows in ${((performance.now() - t) / 1000).toFixed(2)} s`);
    // And builds the manager index's checkpoints (by sequence and by time), as many runs as it takes.
    t = performance.now();
    const checkpoints: string[] = [];
    const timeCheckpoints: string[] = [];
    let checkpointRows = 0;
    const builder = new ManagerCheckpoints(ds);
    for (let r = await builder.run(); r.built.length + r.times.length > 0; r = await builder.run()) {
      checkpoints.push(...r.built);
      timeCheckpoints.push(...r.times);
      checkpointRows += r.rows;
    }
    log(`manager index checkpoints: ${checkpoints.length} by sequence, ${timeCheckpoints.length} by time (${checkpointRows} rows) built in ${((performance.now() - t) / 1000).toFixed(2)} s`);
    // Steady state for the queries: autovacuum would otherwise visit the freshly written tables during the first ones.
    t = performance.now();
    await ds.query(`VACUUM (ANALYZE) ownership_states, ownership_versions, field_transitions, manager_objects, manager_totals, object_findings, findings_versions, manager_objects_versions, events, blobs, objects`);
    log(`vacuumed and analyzed in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    // The long-history objects are measured apart: left out of the random picks.
    const ids: string[] = (await ds.query(`SELECT object_id FROM ownership_states WHERE uid <> ALL($1) ORDER BY object_id`, [[LONG_UID, SHORT_UID]])).map(
      (r: { object_id: string }) => r.object_id,
    );
    const seqs: { min: string; max: string }[] = await ds.query(`SELECT min(seq)::text AS min, max(seq)::text AS max FROM events`);
    const [minSeq, maxSeq] = [Number(seqs[0]!.min), Number(seqs[0]!.max)];
    const random = seededRandom(42);
    const anyId = () => ids[Math.floor(random() * ids.length)]!;
    // A sequence number after every object's first event, and a time between two rounds.
    const laterSeq = () => String(Math.floor(minSeq + OBJECTS + random() * (maxSeq - minSeq - OBJECTS)));
    // Any millisecond of a later round's minute: most fall among its observations.
    const laterTime = () => new Date(Date.UTC(2026, 10, 21, 10, 1) + Math.floor(random() * ROUNDS * 60_000)).toISOString();
    const image = encodeURIComponent('.spec.template.spec.containers[name="app"].image');
    const queries: Record<string, () => string> = {
      // The framework's own floor: what every other query's req/s is compared to.
      healthz: () => `/healthz`,
      fields: () => `/v1/objects/${anyId()}/fields?path=.spec.replicas`,
      'fields at=seq': () => `/v1/objects/${anyId()}/fields?path=.spec.replicas&at=${laterSeq()}`,
      'fields at=time': () => `/v1/objects/${anyId()}/fields?path=${image}&at=${laterTime()}`,
      ownership: () => `/v1/objects/${anyId()}/ownership`,
      'ownership at=seq': () => `/v1/objects/${anyId()}/ownership?at=${laterSeq()}`,
      history: () => `/v1/objects/${anyId()}/fields/history?path=${image}`,
      explain: () => `/v1/objects/${anyId()}/explain?path=${image}`,
      transitions: () => `/v1/objects/${anyId()}/transitions?limit=50`,
      objects: () => `/v1/objects?namespace=ns-${Math.floor(random() * 50)}&limit=100`,
      'objects manager=': () => `/v1/objects?manager=horizontal-pod-autoscaler&namespace=ns-${Math.floor(random() * 50)}&limit=100`,
      'objects manager= at=time': () => `/v1/objects?manager=horizontal-pod-autoscaler&namespace=ns-${Math.floor(random() * 50)}&limit=100&at=${laterTime()}`,
      managers: () => `/v1/managers`,
      'managers at=seq': () => `/v1/managers?at=${laterSeq()}`,
      'managers at=time': () => `/v1/managers?at=${laterTime()}`,
      // The first page of the fields of the manager that owns the most objects (its objects in the list's order, 100 of them).
      'manager fields': () => `/v1/managers/horizontal-pod-autoscaler/fields?limit=100`,
      // The same as of a moment: the manager's objects then, from the versions in force.
      'manager fields at=seq': () => `/v1/managers/horizontal-pod-autoscaler/fields?limit=100&at=${laterSeq()}`,
      'manager fields at=time': () => `/v1/managers/horizontal-pod-autoscaler/fields?limit=100&at=${laterTime()}`,
      findings: () => `/v1/findings?limit=100`,
      'findings at=seq': () => `/v1/findings?limit=100&at=${laterSeq()}`,
      'findings at=time': () => `/v1/findings?limit=100&at=${laterTime()}`,
    };
    const only = process.env['BENCH_QUERIES']?.split(',');
    for (const name of Object.keys(queries)) if (only && !only.includes(name)) delete queries[name];

    const rates = new Map<string, number>();
    await measureApi(ctx, 'AUTH_MODE=none', {}, {}, queries, rates);
    if (LONG_HISTORY > 0) await measureLongHistory(ctx, ds);
    if (args.auth === 'both') {
      const kube = await KubectlSandbox.start();
      try {
        const auth = await benchAuthentication(kube, AUTH_NAMESPACES);
        await measureApi(ctx, AUTH_NAMESPACES === undefined ? 'AUTH_MODE=kubernetes' : `AUTH_MODE=kubernetes, Deployments of ${AUTH_NAMESPACES} namespaces`, { AUTH_MODE: 'kubernetes', KUBECONFIG: auth.kubeconfig }, { authorization: `Bearer ${auth.token}` }, queries, rates);
      } finally {
        await kube.close();
      }
    }

    // The same at= reads in this process, one at a time: from ownership versions, and by folding the object's events.
    const store = new OwnershipQueries(ds);
    const samples = Math.min(500, REQUESTS);
    const timed = async (read: (id: string, at: AsOf) => Promise<unknown>) => {
      const ms: number[] = [];
      for (let i = 0; i < samples; i++) {
        const [id, at] = [anyId(), { kind: 'seq', seq: laterSeq() } as const];
        const s = performance.now();
        await read(id, at);
        ms.push(performance.now() - s);
      }
      return ms.sort((a, b) => a - b);
    };
    const fromVersions = await timed((id, at) => store.snapshot(id, at));
    const folded = await timed((id, at) => store.state(id, at));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `state as of a sequence, ${samples} sequential reads: from versions p50 ${pct(fromVersions, 0.5).toFixed(2)} ms, p99 ${pct(fromVersions, 0.99).toFixed(2)} ms; ` +
        `folding the events p50 ${pct(folded, 0.5).toFixed(2)} ms, p99 ${pct(folded, 0.99).toFixed(2)} ms; fold / versions (means) ${(mean(folded) / mean(fromVersions)).toFixed(1)}`,
    );
  } finally {
    await ds.destroy();
    if (args['keep-database']) console.log(`database kept: ${ctx.database.url}`);
    else await ctx.dispose();
  }
}

/** The long-history objects: one with LONG_HISTORY events, one with two (outside the stream's uids). */
const LONG_UID = '00000000-0000-4000-9000-000000000001';
const SHORT_UID = '00000000-0000-4000-9000-000000000002';

/**
 * The long-history observations, after every round of the data set (resource versions and times
 * after its last): the N-event object's changes are mostly an annotation the controller owns
 * (`deployment.kubernetes.io/revision`) and the status (which alone is not a tracked change), every
 * LONG_IMAGE_EVERY-th also the image; the 2-event object changes its image once.
 */
function* longHistoryStream(): Generator<Observation[]> {
  const rvBase = (ROUNDS + 1) * OBJECTS;
  const startMs = Date.UTC(2026, 10, 21, 10, ROUNDS + 1);
  const at = (i: number) => new Date(startMs + i * 1000).toISOString();
  const observe = (uid: string, name: string, i: number, rv: number, image: string, revision: number): Observation => {
    const o = deploymentObservation({
      cluster: 'bench', uid, name, namespace: 'ns-long', resourceVersion: String(rv), type: i === 0 ? 'ADDED' : 'MODIFIED',
      replicas: 3, image, time: at(i), observedAt: at(i),
      status: { replicas: 3, readyReplicas: 1 + (i % 3), availableReplicas: 1 + (i % 3), updatedReplicas: 3, observedGeneration: 3 + revision },
    });
    const metadata = o.object.metadata as unknown as { annotations: Record<string, string> };
    metadata.annotations = { ...metadata.annotations, 'deployment.kubernetes.io/revision': String(revision) };
    return o;
  };
  let out: Observation[] = [];
  for (let i = 0; i < LONG_HISTORY; i++) {
    out.push(observe(LONG_UID, 'long-history', i, rvBase + 2 * i + 1, `registry.example.com/long:1.${Math.floor(i / LONG_IMAGE_EVERY)}`, 3 + i));
    // The 2-event object's two observations among the first ones (one append, its objects' rows written alike).
    if (i < 2) out.push(observe(SHORT_UID, 'short-history', i, rvBase + 2 * i + 2, `registry.example.com/short:1.${i}`, 3 + i));
    if (out.length >= 500) {
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
}

/**
 * The long-history comparison: one api process; `history`, `explain` (the image path) and `fields`
 * (.spec.replicas) on the 2-event and the N-event object, ONE client, LONG_REQUESTS sequential
 * requests per query and object after a warm-up, one object after the other. Prints p50/p99/max
 * and api CPU per request of each and the N-event ÷ 2-event ratios.
 */
async function measureLongHistory(ctx: TestContext, ds: DataSource): Promise<void> {
  const rows: { uid: string; object_id: string; events: string }[] = await ds.query(
    `SELECT s.uid, s.object_id, (SELECT count(*) FROM events e WHERE e.object_id = s.object_id::bigint)::text AS events
     FROM ownership_states s WHERE s.uid = ANY($1)`,
    [[LONG_UID, SHORT_UID]],
  );
  const of = (uid: string) => rows.find((r) => r.uid === uid) ?? (() => { throw new Error(`no projected object with uid ${uid}`); })();
  const [short, long] = [of(SHORT_UID), of(LONG_UID)];
  const image = encodeURIComponent('.spec.template.spec.containers[name="app"].image');
  const queries: Record<string, (id: string) => string> = {
    history: (id) => `/v1/objects/${id}/fields/history?path=${image}`,
    explain: (id) => `/v1/objects/${id}/explain?path=${image}`,
    fields: (id) => `/v1/objects/${id}/fields?path=.spec.replicas`,
  };
  const port = await freePort();
  const api = spawnRole(ctx, 'api', { PORT: String(port), API_RATE_LIMIT: '0' }, { stdout: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor('the api', async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200, 60_000, 200);
    const get = async (path: string): Promise<{ ms: number; body: unknown }> => {
      const s = performance.now();
      const res = await fetch(url + path);
      const text = await res.text();
      const ms = performance.now() - s;
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 200)}`);
      return { ms, body: JSON.parse(text) };
    };
    // What the N-event object's answers hold (a check that the bench asks what it means to).
    const h = (await get(queries['history']!(long.object_id))).body as { values: unknown[]; transitions: unknown[] };
    const x = (await get(queries['explain']!(long.object_id))).body as { cause: string };
    log(`long history: object ${long.object_id} has ${long.events} events (its image history: ${h.values.length} values, ${h.transitions.length} transitions; explain: ${x.cause}); object ${short.object_id} has ${short.events}`);
    console.log(`\nlong history, ONE client, ${LONG_REQUESTS} sequential requests per query and object (the 2-event object's, then the other's): ${short.events}-event object vs ${long.events}-event object; ${machine()}`);
    console.log(`| query | p50 ms (${short.events} ev) | p99 ms (${short.events} ev) | max ms (${short.events} ev) | p50 ms (${long.events} ev) | p99 ms (${long.events} ev) | max ms (${long.events} ev) | p50 ratio | p99 ratio | api CPU ms per request (${short.events} ev) | api CPU ms per request (${long.events} ev) |`);
    console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
    for (const [name, path] of Object.entries(queries)) {
      for (let i = 0; i < 20; i++) {
        await get(path(short.object_id));
        await get(path(long.object_id));
      }
      // One object after the other: alternating them, the long answers' garbage is collected during the short ones.
      const block = async (id: string): Promise<{ ms: number[]; cpuMs: number }> => {
        const ms: number[] = [];
        const cpuBefore = cpuSeconds(api.pid!);
        for (let i = 0; i < LONG_REQUESTS; i++) ms.push((await get(path(id))).ms);
        return { ms: ms.sort((p, q) => p - q), cpuMs: ((cpuSeconds(api.pid!) - cpuBefore) * 1000) / LONG_REQUESTS };
      };
      const { ms: a, cpuMs: cpuA } = await block(short.object_id);
      const { ms: b, cpuMs: cpuB } = await block(long.object_id);
      const f = (xs: number[], p: number) => pct(xs, p).toFixed(1);
      const max = (xs: number[]) => xs[xs.length - 1]!.toFixed(1);
      console.log(
        `| ${name} | ${f(a, 0.5)} | ${f(a, 0.99)} | ${max(a)} | ${f(b, 0.5)} | ${f(b, 0.99)} | ${max(b)} | ` +
          `${(pct(b, 0.5) / pct(a, 0.5)).toFixed(1)} | ${(pct(b, 0.99) / pct(a, 0.99)).toFixed(1)} | ${cpuA.toFixed(1)} | ${cpuB.toFixed(1)} |`,
      );
    }
    console.log(`api process: peak RSS ${peakRssMiB(api.pid!)} MiB`);
  } finally {
    await stopProcess(api);
  }
}

/**
 * One api process over the bench database answers every query from CLIENTS concurrent clients;
 * prints a table, and each query's req/s as a ratio to the first run's (kept in `rates`).
 */
async function measureApi(
  ctx: TestContext,
  title: string,
  env: Record<string, string>,
  headers: Record<string, string>,
  queries: Record<string, () => string>,
  rates: Map<string, number>,
): Promise<void> {
  const port = await freePort();
  // No rate limit: the bench measures the service, and its clients send far more than API_RATE_LIMIT's default.
  const api = spawnRole(ctx, 'api', { PORT: String(port), API_RATE_LIMIT: '0', ...env }, { stdout: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor('the api', async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200, 60_000, 200);
    const cpuAtStart = cpuSeconds(api.pid!);
    const baseline = rates.size > 0;
    console.log(`\n${title}: ${OBJECTS} objects (${ROUNDS + 1} observations per object); ${machine()}`);
    console.log(`| query | requests | clients | p50 ms | p90 ms | p99 ms | max ms | req/s | req/s ÷ healthz | api CPU ms per request | api peak RSS MiB so far |${baseline ? ' req/s vs AUTH_MODE=none |' : ''}`);
    console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |${baseline ? ' ---: |' : ''}`);
    let healthz: number | undefined;
    for (const [name, next] of Object.entries(queries)) {
      const get = async () => {
        const path = next();
        const s = performance.now();
        const res = await fetch(url + path, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${name}: ${path} answered ${res.status}`);
        return performance.now() - s;
      };
      // A query slower than SLOW_MS alone (the folds of at= over every object) is measured with one client and a few requests.
      // Decided by the first run and kept for the second (--auth both), so their ratios compare the same load.
      const first = await get();
      if (!slowQueries.has(name)) slowQueries.set(name, first > SLOW_MS);
      const slow = slowQueries.get(name)!;
      const [clients, requests] = slow ? [1, Math.min(REQUESTS, 5)] : [CLIENTS, REQUESTS];
      const latencies: number[] = [];
      let sent = 0;
      const cpuBefore = cpuSeconds(api.pid!);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (sent < requests) {
            sent++;
            latencies.push(await get());
          }
        }),
      );
      const rate = requests / ((performance.now() - started) / 1000);
      const cpuMs = ((cpuSeconds(api.pid!) - cpuBefore) * 1000) / requests;
      if (name === 'healthz') healthz = rate;
      latencies.sort((a, b) => a - b);
      const f = (p: number) => pct(latencies, p).toFixed(1);
      const ratio = baseline ? ` ${(rate / rates.get(name)!).toFixed(2)} |` : '';
      if (!baseline) rates.set(name, rate);
      const vsHealthz = healthz === undefined ? '' : (rate / healthz).toFixed(2);
      console.log(`| ${name} | ${requests} | ${clients} | ${f(0.5)} | ${f(0.9)} | ${f(0.99)} | ${latencies[latencies.length - 1]!.toFixed(1)} | ${rate < 10 ? rate.toFixed(2) : Math.round(rate)} | ${vsHealthz} | ${cpuMs.toFixed(2)} | ${peakRssMiB(api.pid!)} |${ratio}`);
    }
    console.log(`api process: ${(cpuSeconds(api.pid!) - cpuAtStart).toFixed(1)} CPU s in all (each query's first request included), peak RSS ${peakRssMiB(api.pid!)} MiB; bench process ${heapMiB()}`);
  } finally {
    await stopProcess(api);
  }
}

/**
 * A ServiceAccount allowed to get Deployments in every namespace (not the cluster-wide ssa-audit.io
 * grant: every object is reviewed), or in the first `namespaces` of the bench's only; its token, and
 * a kubeconfig naming the sandbox "bench", the cluster of the bench's objects (SubjectAccessReviews
 * go to the object's own cluster).
 */
async function benchAuthentication(kube: KubectlSandbox, namespaces: number | undefined): Promise<{ kubeconfig: string; token: string }> {
  await kube.ok(['create', 'serviceaccount', 'bench-reader', '-n', 'default']);
  await kube.ok(['create', 'clusterrole', 'deployment-reader', '--verb=get,list', '--resource=deployments.apps']);
  if (namespaces === undefined) {
    await kube.ok(['create', 'clusterrolebinding', 'bench-reader', '--clusterrole=deployment-reader', '--serviceaccount=default:bench-reader']);
  } else {
    for (let n = 0; n < namespaces; n++) {
      await kube.ok(['create', 'namespace', `ns-${n}`]);
      await kube.ok(['create', 'rolebinding', 'bench-reader', '-n', `ns-${n}`, '--clusterrole=deployment-reader', '--serviceaccount=default:bench-reader']);
    }
  }
  const token = (await kube.ok(['create', 'token', 'bench-reader', '-n', 'default'])).trim();
  // The sandbox's kubeconfig has the one context "ssa-sandbox", the current one: renamed, it stays current.
  await kube.ok(['config', 'rename-context', 'ssa-sandbox', 'bench']);
  return { kubeconfig: kube.kubeconfig, token };
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
