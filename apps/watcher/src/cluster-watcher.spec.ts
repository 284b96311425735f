import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../../libs/config/src/index.js';
import { Metrics } from '../../../libs/common/src/index.js';
import { loadClusters } from '../../../libs/kube/src/index.js';
import { startSandbox, type Sandbox } from '../../../libs/sandbox/src/index.js';
import { ClusterWatcher, type ClusterWatcherPorts } from './cluster-watcher.js';

const silent = pino({ level: 'silent' });

/** A watcher of the cluster of `kubeconfig` whose ports store nothing (10 minutes between discoveries), `ports` replacing some. */
function watcherOf(kubeconfig: string, ports: Partial<ClusterWatcherPorts>, logger = silent, env: Record<string, string> = {}): ClusterWatcher {
  const config = loadConfig({ KUBECONFIG: kubeconfig, LEADER_ELECTION: 'false', DISCOVERY_INTERVAL_MS: '600000', LOG_LEVEL: 'silent', ...env });
  const quiet: ClusterWatcherPorts = {
    enqueue: async () => undefined,
    queueDepth: async () => 0,
    loadPositions: async () => ({ positions: new Map(), otherIdentity: null, maxFlush: 0n }),
    clusterIdentity: async () => 'uid-1',
    onQueueLost: () => () => undefined,
    liveObjects: async () => [],
    storeSchemas: async () => undefined,
  };
  return new ClusterWatcher(loadClusters(config.kube)[0]!, config, { ...quiet, ...ports }, new Metrics({ defaultMetrics: false }), logger);
}

/** The stop a test's hook started, once it has (within 10 s). */
async function stopStarted(stopped: () => Promise<void> | undefined): Promise<Promise<void> | undefined> {
  const deadline = Date.now() + 10_000;
  while (stopped() === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return stopped();
}

describe('ClusterWatcher stop', () => {
  let dir: string;
  let sandbox: Sandbox;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ssa-cluster-watcher-'));
    sandbox = await startSandbox({ port: 0, kubeconfigPath: join(dir, 'kubeconfig') });
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // The all-in-one's SIGTERM during its first discovery: the session's abort fires while discovery is
  // in flight, and the wait for the next discovery (10 minutes here) must not start after it.
  it('returns at once when stopped while a discovery is in flight', async () => {
    let identityReads = 0;
    let stopped: Promise<void> | undefined;
    const watcher = watcherOf(join(dir, 'kubeconfig'), {
      // The second read is the one discovery makes before it starts the watches: stop there.
      clusterIdentity: async () => {
        if (++identityReads === 2) stopped = watcher.stop();
        return 'uid-1';
      },
    });
    watcher.start();
    const stopping = await stopStarted(() => stopped);
    expect(identityReads).toBe(2);
    const started = Date.now();
    await stopping;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(watcher.isLeader).toBe(false);
    expect(watcher.watchedResources).toEqual([]);
  });

  it('does not wait for the rest of the OpenAPI documents when stopped during their download', async () => {
    const kubeconfig = join(dir, 'kubeconfig-openapi');
    let watcher: ClusterWatcher | undefined;
    let stopped: Promise<void> | undefined;
    const documents: string[] = [];
    const slow = await startSandbox({
      port: 0,
      kubeconfigPath: kubeconfig,
      log: (line) => {
        if (!line.url.startsWith('/openapi/v3/')) return;
        documents.push(line.url);
        stopped ??= watcher!.stop();
      },
    });
    try {
      const stored: unknown[] = [];
      const warnings: string[] = [];
      const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
      watcher = watcherOf(kubeconfig, { storeSchemas: async (_c, d) => void stored.push(...d) }, log);
      watcher.start();
      await (await stopStarted(() => stopped));
      const index = (await (await fetch(`${slow.url}/openapi/v3`)).json()) as { paths: Record<string, unknown> };
      // The first document's request was under way at the stop; none after it was asked for.
      expect(documents.length).toBeLessThan(Object.keys(index.paths).length);
      expect(stored).toEqual([]);
      expect(warnings).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('enqueues large objects as their bytes fill the buffer, not by count', async () => {
    const kubeconfig = join(dir, 'kubeconfig-large');
    const large = await startSandbox({ port: 0, kubeconfigPath: kubeconfig });
    try {
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${large.url}/api/v1/namespaces/default/configmaps`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `large-${i}` }, data: { v: 'x'.repeat(100_000) } }),
        });
        expect(res.status).toBe(201);
      }
      // Each enqueue: how many of the large ConfigMaps it holds.
      const enqueued: number[] = [];
      const watcher = watcherOf(kubeconfig, { enqueue: async (o) => void enqueued.push(o.filter((x) => x.object.metadata.name.startsWith('large-')).length) }, silent, {
        RESOURCES_INCLUDE: 'configmaps',
        WATCH_PAGE_BYTES: '65536',
        WATCH_BATCH_BYTES: '65536',
      });
      watcher.start();
      const deadline = Date.now() + 10_000;
      while (enqueued.reduce((a, b) => a + b, 0) < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await watcher.stop();
      // Pages of one (64 KiB at ~100 KB an object), each past the buffer's bound: one per enqueue
      // (by count, 500, they would go together when the 200 ms delay ends).
      expect(enqueued.reduce((a, b) => a + b, 0)).toBe(6);
      expect(Math.max(...enqueued)).toBe(1);
    } finally {
      await large.close();
    }
  });
});
