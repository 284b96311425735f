import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../libs/sandbox/src/index.js';
import { createDataSource } from '../../libs/store/src/index.js';
import { QUEUE_DRIVER, type QueueDriver } from '../../libs/queue/src/index.js';
import { SandboxWriter, createTestContext, storedHistory, waitFor, type TestContext } from '../../libs/testing/src/index.js';
import { startApplication, type Role, type RunningApplication } from '../../apps/bootstrap.js';
import { WatcherService } from '../../apps/watcher/src/watcher.service.js';

/** A sandbox, this run's database and Redis prefix, and the service roles started against them in this process. */
export interface WatcherHarness {
  readonly ctx: TestContext;
  readonly sandbox: Sandbox;
  readonly kubeconfig: string;
  readonly writer: SandboxWriter;
  readonly ds: DataSource;
  /** The cluster name observations carry (the sandbox kubeconfig's context). */
  readonly cluster: string;
  start(roles: Role[], env?: Record<string, string>): Promise<RunningApplication>;
  /** The watcher of a running application answers 200 on /readyz. */
  ready(app: RunningApplication): Promise<void>;
  /** The ingest queue is empty. */
  drained(app: RunningApplication): Promise<void>;
  dispose(): Promise<void>;
}

export const WATCHER_TEST_ENV: Record<string, string> = {
  WATCHER_PORT: '0',
  LEADER_ELECTION: 'false',
  WATCH_BATCH_DELAY_MS: '20',
  WATCH_BACKOFF_INITIAL_MS: '50',
  WATCH_BACKOFF_MAX_MS: '500',
  INGEST_SHARDS: '2',
  DISCOVERY_INTERVAL_MS: '60000',
};

export async function createWatcherHarness(label: string, sandboxOptions: SandboxOptions = {}): Promise<WatcherHarness> {
  const ctx = await createTestContext(label);
  const dir = mkdtempSync(join(tmpdir(), `ssa-${label}-`));
  const kubeconfig = join(dir, 'kubeconfig');
  const sandbox = await startSandbox({ port: 0, kubeconfigPath: kubeconfig, bookmarkIntervalMs: 500, ...sandboxOptions });
  const ds = await createDataSource(ctx.database.url, 2).initialize();
  const apps: RunningApplication[] = [];
  return {
    ctx,
    sandbox,
    kubeconfig,
    writer: new SandboxWriter(sandbox.url),
    ds,
    cluster: 'ssa-sandbox',
    async start(roles, env = {}) {
      const app = await startApplication(ctx.config({ ...WATCHER_TEST_ENV, KUBECONFIG: kubeconfig, ...env }), { roles, migrate: false });
      apps.push(app);
      return app;
    },
    async ready(app) {
      const url = app.app.get(WatcherService).url!;
      await waitFor('watcher ready', async () => (await fetch(`${url}/readyz`)).status === 200, 60_000);
    },
    async drained(app) {
      const driver = app.app.get<QueueDriver>(QUEUE_DRIVER);
      await waitFor('ingest queue drained', async () => (await driver.pending('ingest')) === 0, 60_000);
    },
    async dispose() {
      for (const a of apps) await a.close().catch(() => undefined);
      await sandbox.close();
      await ds.destroy();
      await ctx.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const CM = '/api/v1/namespaces/default/configmaps';
export const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

export function deployment(name: string, image: string, replicas?: number): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      ...(replicas === undefined ? {} : { replicas }),
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
    },
  };
}

export function configMap(name: string, data: Record<string, string>): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data };
}

/** Waits until the store holds as many events for these objects as were written, then compares: exactly these resourceVersions, in order. */
export async function expectStoredExactly(h: WatcherHarness, expected: ReadonlyMap<string, readonly string[]>): Promise<void> {
  const total = [...expected.values()].reduce((n, l) => n + l.length, 0);
  const stored = await waitFor('every write stored', async () => {
    const s = await storedHistory(h.ds, h.cluster);
    return [...expected.keys()].reduce((n, uid) => n + (s.get(uid)?.length ?? 0), 0) >= total ? s : undefined;
  }, 60_000);
  for (const [uid, rvs] of expected) expect(stored.get(uid)!.map((s) => s.resourceVersion)).toEqual(rvs);
}
