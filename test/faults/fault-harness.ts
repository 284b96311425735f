import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sandboxKubeconfig, startSandbox, type Sandbox } from '../../libs/sandbox/src/index.js';
import {
  SandboxWriter,
  TEST_SENSITIVE_HASH_KEY,
  freePort,
  startFlakyProxy,
  startTempPostgres,
  startTempRedis,
  waitFor,
  type FlakyProxy,
  type TempPostgres,
  type TempRedis,
} from '../../libs/testing/src/index.js';
import { seedConfigMaps, startChurn, type Churn, type ChurnOptions, type Created } from './fault-churn.js';
import { verifyAgainstSandbox, type VerifyResult } from './fault-verify.js';

// One fault case's world: its own Postgres and Redis (to stop, restart, cut), the sandbox seeded
// with N ConfigMaps, and the BUILT service (`npm run build` first) as one child process per role.

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');

export type Role = 'api' | 'worker' | 'watcher';
export const ROLES: readonly Role[] = ['api', 'worker', 'watcher'];

/** Objects seeded per case (`FAULT_OBJECTS` overrides). */
export const FAULT_OBJECTS = Number(process.env['FAULT_OBJECTS'] ?? 600);
/** Where every case appends its result line (JSON), for docs/faults.md. */
export const RESULTS_FILE = process.env['FAULT_RESULTS'] ?? join(tmpdir(), 'ssa-audit-fault-results.jsonl');

export interface FaultHarnessOptions {
  /** ConfigMaps in the sandbox before the watcher lists (default FAULT_OBJECTS). */
  readonly objects?: number;
  /** Extra environment of every role. */
  readonly env?: Readonly<Record<string, string>>;
  /** Postgres, Redis and the sandbox behind flaky proxies (to cut connections). */
  readonly proxies?: boolean;
  /** Start the roles at once (default); else call `start(role)`. */
  readonly startRoles?: boolean;
}

export interface FaultVerifyOptions {
  /** `Date.now()` the time until correct counts from (default the churn's last write, else now). */
  readonly since?: number;
  readonly deadlineMs?: number;
  /** uids left out of the comparison. */
  readonly exclude?: ReadonlySet<string>;
}

export interface FaultHarness {
  readonly sandbox: Sandbox;
  readonly writer: SandboxWriter;
  readonly postgres: TempPostgres;
  readonly redis: TempRedis;
  readonly proxies: { readonly postgres: FlakyProxy; readonly redis: FlakyProxy; readonly kube: FlakyProxy } | undefined;
  /** Base URL of the api role (the same port across restarts). */
  readonly api: string;
  /** Every ConfigMap ever created (uid → name). */
  readonly created: Created;
  /** Names of the live ConfigMaps, as the churn keeps them. */
  readonly names: string[];
  /** Environment of the roles (DATABASE_URL, REDIS_URL, QUEUE_PREFIX, KUBECONFIG, …). */
  readonly env: Readonly<Record<string, string>>;
  start(role: Role): Promise<void>;
  /** SIGKILL; resolves once the process is gone. */
  kill(role: Role): Promise<void>;
  /** SIGTERM (a graceful stop, as Kubernetes asks); resolves with the exit code and the milliseconds it took. */
  terminate(role: Role): Promise<{ code: number | null; ms: number }>;
  running(role: Role): boolean;
  churn(options?: ChurnOptions): Churn;
  /** A query on the case's Postgres, straight (never through the proxy). */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Rows of `events` now (0 while Postgres is down). */
  events(): Promise<number>;
  /** Waits until `events` holds at least `n` rows. */
  waitForEvents(n: number, timeoutMs?: number): Promise<void>;
  /** The suite's one verification (fault-verify.ts) plus no (cluster, uid, resourceVersion) stored twice; prints and asserts. */
  verify(options?: FaultVerifyOptions): Promise<VerifyResult>;
  dispose(): Promise<void>;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function httpOk(url: string): Promise<boolean> {
  return (await fetch(url).catch(() => undefined))?.status === 200;
}

export async function startFaultHarness(label: string, options: FaultHarnessOptions = {}): Promise<FaultHarness> {
  const dir = mkdtempSync(join(tmpdir(), `ssa-faults-${label}-`));
  const logs = join(tmpdir(), 'ssa-audit-fault-logs', `${label}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(logs, { recursive: true });
  const postgres = await startTempPostgres();
  const redis = await startTempRedis();
  const sandbox = await startSandbox({ port: 0, kubeconfigPath: join(dir, 'sandbox.kubeconfig'), bookmarkIntervalMs: 500 });
  const writer = new SandboxWriter(sandbox.url);
  const created: Created = new Map();
  const names = await seedConfigMaps(writer, created, options.objects ?? FAULT_OBJECTS);

  let proxies: FaultHarness['proxies'];
  let kubeconfig = join(dir, 'sandbox.kubeconfig');
  if (options.proxies) {
    proxies = { postgres: await startFlakyProxy(postgres.port), redis: await startFlakyProxy(redis.port), kube: await startFlakyProxy(sandbox.port) };
    kubeconfig = join(dir, 'proxied.kubeconfig');
    writeFileSync(kubeconfig, sandboxKubeconfig(proxies.kube.url));
  }
  const port = await freePort();
  const watcherPort = await freePort();
  const api = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    DATABASE_URL: proxies ? postgres.url.replace(`:${postgres.port}/`, `:${new URL(proxies.postgres.url).port}/`) : postgres.url,
    REDIS_URL: proxies ? proxies.redis.url.replace('http:', 'redis:') : redis.url,
    QUEUE_PREFIX: `faults-${randomBytes(4).toString('hex')}`,
    SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY,
    // The checks poll the API from one address for minutes; the rate limit has its own test.
    API_RATE_LIMIT: '0',
    KUBECONFIG: kubeconfig,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    WATCHER_PORT: String(watcherPort),
    DATABASE_POOL_SIZE: '5',
    INGEST_SHARDS: '2',
    // A killed worker's job goes to another after 3 s, not 30.
    JOB_LOCK_DURATION_MS: '3000',
    RESOURCES_INCLUDE: 'configmaps',
    LEADER_ELECTION: 'false',
    WATCH_PAGE_SIZE: '100',
    WATCH_BATCH_SIZE: '100',
    WATCH_BATCH_DELAY_MS: '50',
    WATCH_BACKOFF_INITIAL_MS: '100',
    WATCH_BACKOFF_MAX_MS: '1000',
    ...options.env,
  };
  const { NODE_OPTIONS: _n, DATABASE_URL: _d, REDIS_URL: _r, KUBECONFIG: _k, ...inherited } = process.env;
  const spawnRole = (command: Role | 'migrate'): ChildProcess => {
    const child = spawn(process.execPath, ['dist/apps/main.js', command], { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const log = createWriteStream(join(logs, `${command}.log`), { flags: 'a' });
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    return child;
  };

  const migrate = spawnRole('migrate');
  const code = await new Promise<number | null>((r) => migrate.once('exit', r));
  if (code !== 0) throw new Error(`migrate exited ${code} (log in ${logs})`);

  const children = new Map<Role, ChildProcess>();
  const running = (role: Role) => {
    const c = children.get(role);
    return c !== undefined && c.exitCode === null && c.signalCode === null;
  };
  const start = async (role: Role) => {
    if (running(role)) throw new Error(`${role} is running`);
    const child = spawnRole(role);
    children.set(role, child);
    // Alive, not ready: a watcher is ready only after its lists, a case may want to kill it before.
    const alive = role === 'api' ? `${api}/healthz` : role === 'watcher' ? `http://127.0.0.1:${watcherPort}/healthz` : undefined;
    if (alive) await waitFor(`${role} alive`, async () => (child.exitCode !== null ? Promise.reject(new Error(`${role} exited ${child.exitCode} (log in ${logs})`)) : httpOk(alive)), 60_000, 100);
  };
  const kill = async (role: Role) => {
    const c = children.get(role);
    if (!c || !running(role)) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  const terminate = async (role: Role) => {
    const c = children.get(role);
    if (!c || !running(role)) throw new Error(`${role} is not running`);
    const started = Date.now();
    const exited = new Promise<number | null>((r) => c.once('exit', (code) => r(code)));
    c.kill('SIGTERM');
    const code = await exited;
    return { code, ms: Date.now() - started };
  };
  const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> => {
    const c = new pg.Client({ connectionString: postgres.url });
    c.on('error', () => undefined);
    await c.connect();
    try {
      return (await c.query(text, params)).rows as T[];
    } finally {
      await c.end().catch(() => undefined);
    }
  };
  const events = async () => Number((await sql<{ n: string }>('SELECT count(*) AS n FROM events').catch(() => [{ n: '0' }]))[0]!.n);
  let lastChurn: Churn | undefined;

  if (options.startRoles !== false) await Promise.all(ROLES.map(start));

  return {
    sandbox,
    writer,
    postgres,
    redis,
    proxies,
    api,
    created,
    names,
    env,
    start,
    kill,
    terminate,
    running,
    churn(o) {
      lastChurn = startChurn(writer, created, names, o);
      return lastChurn;
    },
    sql,
    events,
    waitForEvents: (n, timeoutMs = 60_000) => waitFor(`${n} events stored`, async () => (await events()) >= n, timeoutMs, 50).then(() => undefined),
    async verify(o = {}) {
      const name = expect.getState().currentTestName ?? label;
      const since = o.since ?? lastChurn?.stats().lastWriteAt ?? Date.now();
      const result = await verifyAgainstSandbox(sandbox.url, api, created, { since, deadlineMs: o.deadlineMs ?? 60_000, ...(o.exclude ? { exclude: o.exclude } : {}) });
      // Each (cluster, uid, resourceVersion) at most once in the event log and in the idempotency record.
      const twice = await sql<{ n: string }>(
        `SELECT (SELECT count(*) FROM (SELECT o.cluster_id, o.uid, e.resource_version FROM events e JOIN objects o ON o.id = e.object_id
                                       GROUP BY 1, 2, 3 HAVING count(*) > 1) d)
              + (SELECT count(*) FROM (SELECT o.cluster_id, o.uid, s.resource_version FROM observations_seen s JOIN objects o ON o.id = s.object_id
                                       GROUP BY 1, 2, 3 HAVING count(*) > 1) d) AS n`,
      );
      const duplicates = Number(twice[0]!.n);
      const stored = await events();
      const line = result.correct
        ? `correct ${(result.correctAfterMs! / 1000).toFixed(1)} s after the last write`
        : `NOT correct after ${((Date.now() - since) / 1000).toFixed(1)} s: ${result.mismatches.length} objects wrong`;
      console.log(`[faults] ${name}: ${line}; ${result.live} live, ${result.gone} gone, ${stored} events, ${duplicates} stored twice; logs ${logs}`);
      appendFileSync(RESULTS_FILE, `${JSON.stringify({ case: name, ...result, mismatches: result.mismatches.slice(0, 20), duplicates, events: stored, logs, at: new Date().toISOString() })}\n`);
      if (!result.correct) {
        // What the store holds of the wrong objects, for the post-mortem (the world is gone after dispose).
        const uids = result.mismatches.slice(0, 5).map((m) => m.split(' ')[0]!);
        const history = await sql(
          `SELECT o.uid, o.name, e.seq, e.resource_version, e.event_type, e.source, e.observed_at, e.xid::text AS xid
           FROM events e JOIN objects o ON o.id = e.object_id WHERE o.uid = ANY($1) ORDER BY o.uid, e.seq`, [uids]).catch((e: Error) => [{ error: e.message }]);
        const seen = await sql(`SELECT o.uid, s.resource_version, s.observed_at FROM observations_seen s JOIN objects o ON o.id = s.object_id WHERE o.uid = ANY($1) ORDER BY 1, 3`, [uids]).catch((e: Error) => [{ error: e.message }]);
        const projection = await sql(
          `SELECT object_id, last_seq, generation FROM ownership_states WHERE object_id IN (SELECT id::text FROM objects WHERE uid = ANY($1))`, [uids]).catch((e: Error) => [{ error: e.message }]);
        const checkpoints = await sql(`SELECT * FROM projection_checkpoints`).catch((e: Error) => [{ error: e.message }]);
        const maxSeq = await sql(`SELECT max(seq)::text AS max, count(*)::text AS n FROM events`).catch((e: Error) => [{ error: e.message }]);
        const diagnosis = JSON.stringify({ history, seen, projection, checkpoints, maxSeq }, null, 1);
        writeFileSync(join(logs, 'diagnosis.json'), diagnosis);
        console.log(`[faults] ${name}: the store for the wrong objects is in ${join(logs, 'diagnosis.json')}`);
      }
      expect({ correct: result.correct, mismatches: result.mismatches.slice(0, 20), duplicates }).toEqual({ correct: true, mismatches: [], duplicates: 0 });
      return result;
    },
    async dispose() {
      await lastChurn?.stop();
      for (const r of ROLES) await kill(r);
      if (proxies) for (const p of Object.values(proxies)) await p.close();
      await sandbox.close();
      await redis.dispose();
      await postgres.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
