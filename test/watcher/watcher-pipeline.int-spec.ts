import { storedHistory, waitFor, type Written } from '../../libs/testing/src/index.js';
import { WatcherService } from '../../apps/watcher/src/watcher.service.js';
import { CM, DEPLOY, configMap, createWatcherHarness, deployment, type WatcherHarness } from './watcher-harness.js';

// Sandbox (real HTTP) → watcher → BullMQ (Redis) → ingest worker → Postgres, all roles in this process.

type Step = { type: string; resourceVersion: string };

describe('watcher: list/watch → ingest → store', () => {
  let h: WatcherHarness;
  beforeAll(async () => {
    h = await createWatcherHarness('watcher-pipeline');
  });
  afterAll(async () => {
    await h?.dispose();
  });

  it('stores exactly the scripted sequence of every object, in order', async () => {
    const expected = new Map<string, Step[]>();
    const record = (type: string, w: Written) => expected.set(w.uid, [...(expected.get(w.uid) ?? []), { type, resourceVersion: w.resourceVersion }]);

    // Exists before the watcher starts: seen by the initial list.
    record('ADDED', await h.writer.create(CM, configMap('before', { a: '1' })));

    const app = await h.start(['worker', 'watcher']);
    await h.ready(app);
    const watched = app.app.get(WatcherService).clusterWatchers[0]!.watchedResources;
    expect(watched).toEqual(expect.arrayContaining(['configmaps', 'deployments.apps', 'customresourcedefinitions.apiextensions.k8s.io']));
    expect(watched).not.toContain('leases.coordination.k8s.io');
    expect(watched).not.toContain('events');

    const w = h.writer;
    record('MODIFIED', await w.patch(CM, 'before', { data: { a: '2' } }));
    record('ADDED', await w.apply(DEPLOY, deployment('web', 'nginx:1', 2), 'ci'));
    const cm = await w.create(CM, configMap('settings', { mode: 'a' }), 'kubectl-create');
    record('ADDED', cm);
    const live = (await w.get(`${DEPLOY}/web`)) as { metadata: Record<string, unknown> };
    record('MODIFIED', await w.update(DEPLOY, { ...deployment('web', 'nginx:1', 2), metadata: { ...live.metadata, labels: { app: 'web', tier: 'front' } } }, 'kubectl-edit'));
    record('MODIFIED', await w.patch(DEPLOY, 'web', { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } } }, 'kubectl-set'));
    record('MODIFIED', await w.scale(DEPLOY, 'web', 5, 'horizontal-pod-autoscaler'));
    record('MODIFIED', await w.patch(CM, 'settings', { data: { mode: 'b' } }));
    record('MODIFIED', await w.apply(DEPLOY, deployment('web', 'nginx:3', 3), 'ci', true));
    record('DELETED', await w.delete(CM, 'settings'));
    record('MODIFIED', await w.apply(DEPLOY, deployment('web', 'nginx:4', 3), 'ci'));
    record('DELETED', await w.delete(DEPLOY, 'web'));

    const total = [...expected.values()].reduce((n, s) => n + s.length, 0);
    const stored = await waitFor('every event stored', async () => {
      const all = await storedHistory(h.ds, h.cluster);
      const n = [...expected.keys()].reduce((k, uid) => k + (all.get(uid)?.length ?? 0), 0);
      return n >= total ? all : undefined;
    }, 30_000);
    for (const [uid, steps] of expected) {
      expect(stored.get(uid)!.map((s) => ({ type: s.type, resourceVersion: s.resourceVersion }))).toEqual(steps);
    }
    expect(stored.get([...expected.keys()][0]!)!.map((s) => s.source)).toEqual(['relist', 'watch']);

    const metrics = await (await fetch(`${app.app.get(WatcherService).url}/metrics`)).text();
    expect(metrics).toMatch(/ssa_audit_watch_events_total\{cluster="ssa-sandbox",resource="deployments.apps",type="MODIFIED"\} [1-9]/);
    expect(metrics).toMatch(/ssa_audit_watch_relists_total\{cluster="ssa-sandbox",resource="configmaps",reason="initial"\} 1/);
    expect(metrics).toMatch(/ssa_audit_watch_last_event_age_seconds\{cluster="ssa-sandbox",resource="configmaps"\}/);
    expect(metrics).toMatch(/ssa_audit_watch_queue_depth \d/);
  });
});
