import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { resolveSensitiveHashKey } from '../libs/config/src/index.js';
import { createLogger } from '../libs/common/src/index.js';
import { BullMqQueueDriver, IngestProducer } from '../libs/queue/src/index.js';
import { createTestContext, deploymentObservation, freePort, waitFor, type TestContext } from '../libs/testing/src/index.js';

// The built service (dist/, as `npm start` runs it) in child processes.

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const children: ChildProcess[] = [];

function run(args: string[], env: Record<string, string>) {
  const { NODE_OPTIONS: _n, DATABASE_URL: _d, REDIS_URL: _r, ...inherited } = process.env;
  const child = spawn(process.execPath, ['dist/apps/main.js', ...args], { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  children.push(child);
  return { child, exited, stderr: () => stderr, stdout: () => stdout };
}

function hasKubectl(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function ready(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/readyz`)).status === 200;
  } catch {
    return false;
  }
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('the built service', () => {
  it('all-in-one with no configuration: embedded Postgres, ready, metrics, clean shutdown on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ssa-audit-e2e-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const p = run(['all'], { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' });
    await waitFor('/readyz', () => ready(url), 60_000, 200);
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toContain('# TYPE ssa_audit_observations_total counter');
    expect(metrics).toContain('ssa_audit_process_cpu_seconds_total');
    // Every log line is JSON.
    for (const line of p.stdout().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    p.child.kill('SIGTERM');
    const code = await p.exited;
    // On failure, say why: the log lines from "stopping" on.
    const log = p.stdout();
    expect({ code, log: code === 0 ? '' : log.slice(log.lastIndexOf('{', log.indexOf('"msg":"stopping"'))) }).toEqual({ code: 0, log: '' });
    // Each step of the stop says when it is done, in order, and the process last.
    const steps = [...log.matchAll(/"msg":"(watcher stopped|queue closed|database closed|stopped)"/g)].map((m) => m[1]);
    expect(steps).toEqual(['watcher stopped', 'queue closed', 'database closed', 'stopped']);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('with no cluster configured, watches an in-process sandbox that kubectl drives', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ssa-audit-home-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const { KUBECONFIG: _k, ...env } = process.env;
    void _k;
    const p = run(['all'], { ...(env as Record<string, string>), HOME: home, DATA_DIR: join(home, 'data'), PORT: String(port), WATCHER_PORT: '0' });
    await waitFor('/readyz', () => ready(url), 60_000, 200);
    const kubeconfig = join(home, 'data', 'sandbox.kubeconfig');
    expect(p.stderr()).toContain(`kubectl --kubeconfig ${kubeconfig}`);
    const kubectl = (...args: string[]) => execFileSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8' });
    if (!hasKubectl()) return; // the API check below needs kubectl to write; .ci/run installs it
    kubectl('create', 'configmap', 'demo', '--from-literal=color=blue');
    kubectl('label', 'configmap', 'demo', 'team=a');
    const objects = async () => (await (await fetch(`${url}/v1/objects?kind=ConfigMap&name=demo`)).json()) as { items: { id: string }[] };
    await waitFor('the ConfigMap in the API', async () => (await objects()).items.length === 1, 30_000, 250);
    const id = (await objects()).items[0]!.id;
    const owners = async () =>
      ((await (await fetch(`${url}/v1/objects/${id}/fields?path=.metadata.labels.team`)).json()) as { owners: { manager: string }[] }).owners;
    await waitFor('the label owner', async () => (await owners()).some((o) => o.manager === 'kubectl-label'), 30_000, 250);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    await rm(home, { recursive: true, force: true });
  });

  it('refuses a bad configuration, listing every problem', async () => {
    const p = run(['all'], { PORT: 'eighty', LOG_LEVEL: 'loud', INGEST_SHARDS: '0' });
    expect(await p.exited).toBe(78);
    expect(p.stderr()).toContain('Invalid configuration (3 problems)');
    expect(p.stderr()).toContain('PORT: must be a whole number between 1 and 65535 (got "eighty")');
    expect(p.stderr()).toMatch(/LOG_LEVEL: .*\(got "loud"\)/);
    expect(p.stderr()).toContain('INGEST_SHARDS: must be at least 1');
  });

  it('refuses a real database without a hash key for Secret values (exit 78)', async () => {
    const p = run(['api'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/unused', SENSITIVE_HASH_KEY: '', SENSITIVE_HASH_KEY_FILE: '', LOG_LEVEL: 'silent' });
    expect(await p.exited).toBe(78);
    expect(p.stderr()).toContain('Invalid configuration (1 problem)');
    expect(p.stderr()).toContain('SENSITIVE_HASH_KEY: required with DATABASE_URL');
  });

  it('refuses to run one role on the embedded database', async () => {
    const p = run(['api'], { LOG_LEVEL: 'silent' });
    expect(await p.exited).toBe(1);
    expect(p.stderr()).toContain('the embedded database (no DATABASE_URL) only runs with all roles in one process');
  });

  describe('scaled out on Postgres and Redis', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext('e2e');
    });
    afterAll(async () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await ctx?.dispose();
    });

    it('migrate, then api and worker as separate processes; observations flow through BullMQ', async () => {
      const port = await freePort();
      const env = ctx.env({ PORT: String(port), LOG_LEVEL: 'warn' });
      const m = run(['migrate'], env);
      expect(await m.exited).toBe(0);
      const api = run(['api'], env);
      run(['worker'], env);
      const url = `http://127.0.0.1:${port}`;
      await waitFor('/readyz', () => ready(url), 60_000, 200);
      const ready_ = (await (await fetch(`${url}/readyz`)).json()) as { checks: unknown };
      expect(ready_.checks).toEqual({ database: { status: 'ok', kind: 'postgres' }, queue: { status: 'ok', kind: 'bullmq' }, lanes: { status: 'ok', kind: 'ingest lanes' } });

      const config = ctx.config();
      const driver = new BullMqQueueDriver({ redisUrl: ctx.redisUrl, prefix: ctx.prefix, ingestShards: config.queue.ingestShards, attempts: 1, lockDurationMs: 30_000 }, createLogger('silent'));
      await new IngestProducer(driver, config.queue, { sensitiveKinds: [], hashKey: resolveSensitiveHashKey(config.capture.hashKey) }).enqueue(
        Array.from({ length: 50 }, (_, i) => deploymentObservation({ uid: `e2e-${i}`, resourceVersion: '1', type: 'ADDED' })),
      );
      await driver.close();
      const body = await waitFor('events through the api', async () => {
        const r = (await (await fetch(`${url}/v1/events?limit=1000`)).json()) as { items: { uid: string }[] };
        return r.items.length === 50 ? r : null;
      }, 60_000, 200);
      expect(new Set(body.items.map((e) => e.uid)).size).toBe(50);
      const bad = await fetch(`${url}/v1/events?limit=0`);
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { code: string }).code).toBe('invalid-request');
      api.child.kill('SIGTERM');
      expect(await api.exited).toBe(0);
    });
  });
});
