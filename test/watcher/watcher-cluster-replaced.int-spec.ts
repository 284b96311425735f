import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Observation } from '../../libs/common/src/index.js';
import { ResourceWatch, clusterIdentity, loadClusters, type ApiResource, type KnownObject, type KubeClient, type WatchSink } from '../../libs/kube/src/index.js';
import { startSandbox, type Sandbox } from '../../libs/sandbox/src/index.js';
import { SandboxWriter, waitFor } from '../../libs/testing/src/index.js';
import { CM, configMap } from './watcher-harness.js';

// A cluster rebuilt behind the same URL: every object gone, resourceVersions restarted lower. A
// ResourceWatch holding a position of the old cluster must not resume silently: the server has not
// reached that resourceVersion (504 Too large resource version), so it relists and hands over the
// difference with what the store holds as live: the vanished objects DELETED, the new ones ADDED,
// both gap-fill. The store here is a map folded from what the sink receives.

/** replace() closes every connection; a request racing that on a pooled socket would fail, as against a restarted apiserver. */
const settleConnections = () => new Promise((r) => setTimeout(r, 100));

const resource: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };

function foldingSink() {
  const live = new Map<string, KnownObject>();
  const received: Observation[] = [];
  let position: string | undefined;
  const sink: WatchSink = {
    async push(_r, observations, pos) {
      for (const o of observations) {
        received.push(o);
        const md = o.object.metadata;
        if (o.type === 'DELETED') live.delete(md.uid);
        else live.set(md.uid, { uid: md.uid, name: md.name, namespace: md.namespace ?? '' });
      }
      if (pos) position = pos;
    },
    async settle() {},
  };
  return { sink, live, received, position: () => position };
}

describe('watcher: the cluster behind the URL is replaced', () => {
  let sb: Sandbox;
  let dir: string;
  let client: KubeClient;
  const writer = () => new SandboxWriter(sb.url);
  const options = (store: Map<string, KnownObject>, resumeFrom?: string) => ({
    pageSize: 50,
    stallTimeoutMs: 2_000,
    backoffInitialMs: 20,
    backoffMaxMs: 200,
    ...(resumeFrom ? { resumeFrom } : {}),
    liveObjects: async () => [...store.values()],
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ssa-replaced-'));
    sb = await startSandbox({ port: 0, kubeconfigPath: join(dir, 'kubeconfig'), bookmarkIntervalMs: 100, freshnessWaitMs: 200 });
    client = loadClusters({ kubeconfig: [join(dir, 'kubeconfig')], contexts: [], inCluster: false })[0]!;
  });
  afterEach(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a watch resuming from a position of the old cluster relists (too-large): the vanished DELETED, the new ADDED, gap-fill', async () => {
    const w = writer();
    const old: string[] = [];
    for (let i = 0; i < 30; i++) old.push((await w.create(CM, configMap(`old-${i}`, { v: '0' }))).uid);
    const identity = await clusterIdentity(client);

    const store = foldingSink();
    const first = new ResourceWatch(client, resource, store.sink, options(store.live), pino({ level: 'silent' }));
    first.start();
    await waitFor('old objects listed', async () => store.live.size === 30 && store.position() !== undefined);
    await first.stop();
    const position = store.position()!;

    sb.replace();
    await settleConnections();
    const fresh: string[] = [];
    for (let i = 0; i < 5; i++) fresh.push((await w.create(CM, configMap(`new-${i}`, { v: '0' }))).uid);
    expect(await clusterIdentity(client)).not.toBe(identity);
    expect(sb.cluster.store.resourceVersion).toBeLessThan(Number(position));

    store.received.length = 0;
    const relists: string[] = [];
    const second = new ResourceWatch(client, resource, store.sink, options(store.live, position), pino({ level: 'silent' }), {
      onRelist: (_r, reason, _s, objects, deleted) => relists.push(`${reason} ${objects} ${deleted}`),
    });
    second.start();
    await waitFor('relisted', async () => relists.length === 1);
    // Watching goes on in the new cluster.
    const later = await w.create(CM, configMap('later', { v: '0' }));
    await waitFor('watched after the relist', async () => store.live.has(later.uid));
    await second.stop();

    expect(relists).toEqual(['too-large 5 30']);
    const byUid = new Map(store.received.map((o) => [o.object.metadata.uid, `${o.type} ${o.source}`]));
    for (const uid of old) expect(byUid.get(uid)).toBe('DELETED gap-fill');
    for (const uid of fresh) expect(byUid.get(uid)).toBe('ADDED gap-fill');
    expect(byUid.get(later.uid)).toBe('ADDED watch');
    expect([...store.live.keys()].sort()).toEqual([...fresh, later.uid].sort());
  });

  it('a running watch whose cluster is replaced reconnects, finds its position unreached and relists', async () => {
    const w = writer();
    for (let i = 0; i < 10; i++) await w.create(CM, configMap(`old-${i}`, { v: '0' }));
    const store = foldingSink();
    const relists: string[] = [];
    const watch = new ResourceWatch(client, resource, store.sink, options(store.live), pino({ level: 'silent' }), {
      onRelist: (_r, reason, _s, objects, deleted) => relists.push(`${reason} ${objects} ${deleted}`),
    });
    watch.start();
    await waitFor('listed', async () => store.live.size === 10);
    const watched = await w.create(CM, configMap('watched', { v: '0' }));
    await waitFor('watched', async () => store.live.has(watched.uid));

    await fetch(`${sb.url}/sandbox/replace`, { method: 'POST' });
    await settleConnections();
    const fresh = await w.create(CM, configMap('fresh', { v: '0' }));
    await waitFor('relisted after the replacement', async () => relists.length === 2 && store.live.has(fresh.uid));
    await watch.stop();
    // The new object is listed or watched, depending on whether the relist came before its creation.
    expect(relists).toEqual(['initial 10 0', expect.stringMatching(/^too-large [01] 11$/)]);
    expect([...store.live.keys()]).toEqual([fresh.uid]);
  });
});
