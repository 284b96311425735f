import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { KubectlSandbox, itWithKubectl } from '../libs/testing/src/kubectl-sandbox.js';
import { createTestContext, startBuiltService, waitFor, type BuiltService, type TestContext } from '../libs/testing/src/index.js';
import type { EventResponseDto, ListEventsResponseDto } from '../apps/api/src/events.dto.js';
import type { ListFindingsResponseDto } from '../apps/api/src/findings.dto.js';
import type { ListManagersResponseDto, ManagerFieldsResponseDto } from '../apps/api/src/managers.dto.js';
import type { FieldHistoryResponseDto, FieldResponseDto, ListObjectsResponseDto } from '../apps/api/src/objects.dto.js';
import type { ReadinessReport } from '../apps/api/src/readiness.service.js';
import { SANDBOX_ADMIN_TOKEN, startSandbox, type Sandbox } from '../libs/sandbox/src/index.js';

// Issue 14, part 4: KUBE_CONTEXTS=east,west against two sandboxes, the BUILT service watching both,
// the real kubectl writing the same namespace/name in each; every assertion is on an API answer.

const LONG = 240_000;

const configMap = (data: Record<string, string>) =>
  stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'shop' }, data });

/** One kubeconfig, one context per sandbox (named after it), as an operator writes it for KUBE_CONTEXTS. */
function contexts(path: string, servers: Record<string, string>): void {
  const names = Object.keys(servers);
  writeFileSync(
    path,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: names.map((n) => ({ name: n, cluster: { server: servers[n] } })),
      users: [{ name: 'admin', user: { token: SANDBOX_ADMIN_TOKEN } }],
      contexts: names.map((n) => ({ name: n, context: { cluster: n, user: 'admin', namespace: 'default' } })),
      'current-context': names[0],
    }),
    { mode: 0o600 },
  );
}

describe('two clusters (KUBE_CONTEXTS=east,west) through the built service', () => {
  let ctx: TestContext;
  let east: KubectlSandbox;
  let west: KubectlSandbox;
  let westAgain: Sandbox | undefined;
  let westRebuilt: Sandbox | undefined;
  let service: BuiltService;
  let dir: string;

  beforeAll(async () => {
    ctx = await createTestContext('multicluster');
    east = await KubectlSandbox.start({ bookmarkIntervalMs: 500 });
    west = await KubectlSandbox.start({ bookmarkIntervalMs: 500 });
    dir = mkdtempSync(join(tmpdir(), 'ssa-two-clusters-'));
    contexts(join(dir, 'kubeconfig'), { east: east.sandbox.url, west: west.sandbox.url });
    service = await startBuiltService(ctx, join(dir, 'kubeconfig'), { KUBE_CONTEXTS: 'east,west', WATCH_BACKOFF_MAX_MS: '1000', DISCOVERY_INTERVAL_MS: '3000' });
  }, 180_000);

  afterAll(async () => {
    // KEEP_SERVICE_LOG=<file>: the service's log, to read after a failure.
    if (process.env['KEEP_SERVICE_LOG']) writeFileSync(process.env['KEEP_SERVICE_LOG'], service?.stdout() ?? '');
    await service?.stop();
    await westAgain?.close();
    await westRebuilt?.close();
    await east?.close();
    await west?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await ctx?.dispose();
  }, 60_000);

  const api = <T>(path: string) => service.api<T>(path);
  const objects = async (query: string) => (await api<ListObjectsResponseDto>(`/v1/objects?${query}`)).items;
  const field = (id: string, path: string) => api<FieldResponseDto>(`/v1/objects/${id}/fields?path=${encodeURIComponent(path)}`);
  const managerObjects = async (manager: string, query = '') =>
    (await api<ManagerFieldsResponseDto>(`/v1/managers/${manager}/fields?limit=500${query}`)).items.map((i) => `${i.object.cluster}/${i.object.name}`);
  const fieldValue = (id: string, path: string, value: unknown) =>
    waitFor(`${path} = ${JSON.stringify(value)} of ${id}`, async () => {
      const f = await field(id, path);
      return f.present && f.value === value ? f : undefined;
    }, 60_000, 250);
  const readiness = async () => (await fetch(`${service.url}/readyz`)).json() as Promise<ReadinessReport>;
  const metrics = async () => (await fetch(`${service.url}/metrics`)).text();
  const westConfigMapRelists = (text: string) =>
    [...text.matchAll(/^ssa_audit_watch_relists_total\{cluster="west",resource="configmaps",reason="(?:too-large|initial)"\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);

  /** The first event the SSE stream sends for `query`. */
  async function firstStreamedEvent(query: string): Promise<EventResponseDto> {
    const abort = new AbortController();
    const r = await fetch(`${service.url}/v1/events/stream?${query}`, { signal: abort.signal });
    const reader = r.body!.getReader();
    let text = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before an event: ${text}`);
        text += new TextDecoder().decode(value);
        const data = /^data: (.+)$/m.exec(text);
        if (data) return JSON.parse(data[1]!) as EventResponseDto;
      }
    } finally {
      abort.abort();
    }
  }

  /** Every event of the log, from the beginning. */
  async function allEvents(): Promise<EventResponseDto[]> {
    const out: EventResponseDto[] = [];
    for (let since = '0:0'; ; ) {
      const page = await api<ListEventsResponseDto>(`/v1/events?since=${since}&limit=1000`);
      out.push(...page.items);
      if (page.items.length === 0) return out;
      since = page.nextCursor;
    }
  }

  let ids: Record<'east' | 'west', string>;

  itWithKubectl(21, 'server-side apply', LONG)('the same namespace/name in both clusters stays apart in every answer; cluster= filters', async () => {
    for (const k of [east, west]) await k.ok(['create', 'namespace', 'shop']);
    await east.ok(['apply', '--server-side', '--field-manager=east-deployer', '-f', '-'], { input: configMap({ color: 'blue', size: 'large' }) });
    // West: created by one manager (Update), then applied with the same values by another: both own them.
    await west.ok(['create', 'configmap', 'app-config', '-n', 'shop', '--from-literal=color=green', '--field-manager=west-creator']);
    await west.ok(['apply', '--server-side', '--field-manager=west-deployer', '-f', '-'], { input: configMap({ color: 'green' }) });

    const both = await waitFor('app-config in both clusters', async () => {
      const items = await objects('kind=ConfigMap&name=app-config');
      return items.length === 2 ? items : undefined;
    }, 60_000, 250);
    expect(both.map((o) => `${o.cluster}/${o.namespace}/${o.name}`).sort()).toEqual(['east/shop/app-config', 'west/shop/app-config']);
    ids = { east: both.find((o) => o.cluster === 'east')!.id, west: both.find((o) => o.cluster === 'west')!.id };
    expect(ids.east).not.toEqual(ids.west);
    expect((await objects('name=app-config&cluster=east')).map((o) => o.id)).toEqual([ids.east]);
    expect((await objects('name=app-config&cluster=west')).map((o) => o.id)).toEqual([ids.west]);
    expect(await objects('name=app-config&cluster=north')).toEqual([]);

    // Values and owners per cluster.
    const eastColor = await fieldValue(ids.east, '.data.color', 'blue');
    expect(eastColor.owners.map((o) => `${o.manager}/${o.operation}`)).toEqual(['east-deployer/Apply']);
    const westColor = await waitFor('west color co-owned', async () => {
      const f = await field(ids.west, '.data.color');
      return f.value === 'green' && f.owners.length === 2 ? f : undefined;
    }, 60_000, 250);
    expect(westColor.owners.map((o) => `${o.manager}/${o.operation}`).sort()).toEqual(['west-creator/Update', 'west-deployer/Apply']);
    expect((await field(ids.west, '.data.size')).present).toBe(false);

    // History per object: no transition of the other cluster's managers.
    const eastHistory = await api<FieldHistoryResponseDto>(`/v1/objects/${ids.east}/fields/history?path=.data.color`);
    expect(new Set(eastHistory.transitions.map((t) => t.manager))).toEqual(new Set(['east-deployer']));
    const westHistory = await api<FieldHistoryResponseDto>(`/v1/objects/${ids.west}/fields/history?path=.data.color`);
    expect(new Set(westHistory.transitions.map((t) => t.manager))).toEqual(new Set(['west-creator', 'west-deployer']));

    // Managers: each in its own cluster only; cluster= narrows.
    expect(await managerObjects('east-deployer')).toEqual(['east/app-config']);
    expect(await managerObjects('west-deployer')).toEqual(['west/app-config']);
    expect(await managerObjects('east-deployer', '&cluster=west')).toEqual([]);
    expect(await managerObjects('west-deployer', '&cluster=west')).toEqual(['west/app-config']);
    const managers = async (query: string) => (await api<ListManagersResponseDto>(`/v1/managers?limit=500${query}`)).items.map((m) => m.manager);
    expect(await managers('')).toEqual(expect.arrayContaining(['east-deployer', 'west-creator', 'west-deployer']));
    // (each sandbox has its own kube-apiserver and kubectl-create objects too)
    const ours = (names: string[]) => names.filter((m) => /^(east|west)-/.test(m)).sort();
    expect(ours(await managers('&cluster=east'))).toEqual(['east-deployer']);
    expect(ours(await managers('&cluster=west'))).toEqual(['west-creator', 'west-deployer']);
    const now = encodeURIComponent(new Date().toISOString());
    expect(ours(await managers(`&cluster=east&at=${now}`))).toEqual(['east-deployer']); // at= folds the states of that cluster only
    expect(ours(await managers(`&at=${now}`))).toEqual(['east-deployer', 'west-creator', 'west-deployer']);

    // The event log and its stream: cluster= keeps that cluster's events only.
    const eventsOf = async (cluster: string) => (await api<ListEventsResponseDto>(`/v1/events?since=0:0&limit=1000&cluster=${cluster}`)).items;
    const eastEvents = await eventsOf('east');
    expect(eastEvents.length).toBeGreaterThan(0);
    expect(new Set(eastEvents.map((e) => e.cluster))).toEqual(new Set(['east']));
    expect(new Set((await eventsOf('west')).map((e) => e.cluster))).toEqual(new Set(['west']));
    const streamed = await firstStreamedEvent('since=0:0&cluster=west');
    expect(streamed.cluster).toBe('west');

    // Findings: the co-owned field is west's only, and cluster= filters it.
    const coOwned = async (query: string) =>
      (await api<ListFindingsResponseDto>(`/v1/findings?type=apply-update-co-owned&limit=500${query}`)).items.filter(
        (f) => f.path === '.data.color',
      );
    expect((await coOwned('')).map((f) => f.objectId)).toEqual([ids.west]);
    expect((await coOwned('&cluster=west')).map((f) => `${f.cluster}/${f.objectId}`)).toEqual([`west/${ids.west}`]);
    expect(await coOwned('&cluster=east')).toEqual([]);

    const ready = await readiness();
    expect(ready.status).toBe('ok');
    expect(Object.keys(ready.clusters).sort()).toEqual(['east', 'west']);
    expect(ready.clusters['west']!.status).toBe('watching');
  });

  itWithKubectl(21, 'server-side apply', LONG)('west going away does not stop east; /readyz and /metrics name west; west coming back resumes without loss or doubles', async () => {
    const westCluster = west.sandbox.cluster;
    const westPort = west.sandbox.port;
    await west.sandbox.close();

    // East goes on.
    await east.ok(['apply', '--server-side', '--field-manager=east-deployer', '-f', '-'], { input: configMap({ color: 'navy', size: 'large' }) });
    await fieldValue(ids.east, '.data.color', 'navy');

    // West is named as behind, east is not; the service stays ready (east's answers are current).
    const behind = await waitFor('west behind in /readyz', async () => {
      const r = await readiness();
      return r.clusters['west']?.status === 'behind' ? r : undefined;
    }, 60_000, 250);
    expect(behind.status).toBe('ok');
    expect(behind.clusters['east']!.status).toBe('watching');
    expect(behind.clusters['west']!.error).toEqual(expect.any(String));
    const text = await metrics();
    expect(text).toMatch(/ssa_audit_cluster_behind\{cluster="west"\} 1/);
    expect(text).toMatch(/ssa_audit_cluster_behind\{cluster="east"\} 0/);

    // Meanwhile west is written by others (its state served on another port, the service not told).
    const aside = await KubectlSandbox.start({ cluster: westCluster });
    try {
      for (const c of ['amber', 'violet']) {
        const r = await aside.kubectl(['apply', '--server-side', '--field-manager=west-deployer', '--force-conflicts', '-f', '-'], { input: configMap({ color: c }) });
        expect(r.stderr).toBe('');
      }
      expect((await aside.kubectl(['create', 'configmap', 'written-while-away', '-n', 'shop', '--from-literal=k=v'])).code).toBe(0);
    } finally {
      await aside.close();
    }

    // West comes back on its address with its state: the service resumes and answers what it missed.
    westAgain = await startSandbox({ cluster: westCluster, port: westPort, bookmarkIntervalMs: 500 });
    await fieldValue(ids.west, '.data.color', 'violet');
    await waitFor('written-while-away in the API', async () => (await objects('name=written-while-away&cluster=west')).length === 1, 60_000, 250);
    await waitFor('west watching again', async () => (await readiness()).clusters['west']?.status === 'watching', 60_000, 250);
    await waitFor('west not behind in /metrics', async () => /ssa_audit_cluster_behind\{cluster="west"\} 0/.test(await metrics()), 30_000, 250);

    // One write after the return, then: every event once per (cluster, uid, resourceVersion), and each
    // write of west's app-config present (the watch resumed from its position: nothing gap-filled).
    await west.ok(['apply', '--server-side', '--field-manager=west-deployer', '-f', '-'], { input: configMap({ color: 'teal' }) });
    await fieldValue(ids.west, '.data.color', 'teal');
    const events = await allEvents();
    const keys = events.map((e) => `${e.cluster}/${e.uid}/${e.resourceVersion}`);
    expect(keys.length).toBe(new Set(keys).size);
    const westHistory = await api<FieldHistoryResponseDto>(`/v1/objects/${ids.west}/fields/history?path=.data.color`);
    expect(westHistory.values.filter((v) => v.present).map((v) => v.value)).toEqual(['green', 'amber', 'violet', 'teal']);
    const westEvents = events.filter((e) => e.cluster === 'west' && e.name === 'app-config');
    expect(westEvents.map((e) => e.source).filter((s) => s === 'gap-fill')).toEqual([]);
    const eastEvents = events.filter((e) => e.cluster === 'east' && e.name === 'app-config');
    expect(eastEvents).toHaveLength(2);
  });

  itWithKubectl(21, 'server-side apply', LONG)('west rebuilt behind its address (another kube-system uid): relisted with gap-fill, nothing doubled, east untouched', async () => {
    const westPort = westAgain!.port;
    const relistsBefore = westConfigMapRelists(await metrics());
    await westAgain!.close();
    westAgain = undefined;
    westRebuilt = await startSandbox({ port: westPort, bookmarkIntervalMs: 500 });
    await west.ok(['create', 'namespace', 'shop']);
    await west.ok(['apply', '--server-side', '--field-manager=west-deployer', '-f', '-'], { input: configMap({ color: 'rebuilt' }) });

    // The new app-config is another object (another uid); the old one and written-while-away are recorded deleted.
    const fresh = await waitFor('the rebuilt app-config, the old ones deleted', async () => {
      const items = await objects('name=app-config&cluster=west');
      const away = await objects('name=written-while-away&cluster=west');
      const live = items.filter((o) => !o.deleted);
      const old = items.find((o) => o.id === ids.west);
      return live.length === 1 && old?.deleted && away.every((o) => o.deleted) ? live[0] : undefined;
    }, 60_000, 250);
    expect(fresh.id).not.toEqual(ids.west);
    await fieldValue(fresh.id, '.data.color', 'rebuilt');
    expect((await field(ids.east, '.data.color')).value).toBe('navy');
    expect((await objects('name=app-config&cluster=east')).map((o) => o.id)).toEqual([ids.east]);

    // Whichever notices first relists: the watch (its position too large for the new cluster) or the
    // discovery that sees the new kube-system uid and starts a new session. A second pass changes nothing.
    expect(westConfigMapRelists(await metrics())).toBeGreaterThan(relistsBefore);
    await waitFor('the identity change counted', async () => /ssa_audit_cluster_discontinuities_total\{cluster="west",reason="identity"\} [1-9]/.test(await metrics()), 60_000, 500);
    await waitFor('west watching again', async () => (await readiness()).clusters['west']?.status === 'watching', 60_000, 250);
    await west.ok(['apply', '--server-side', '--field-manager=west-deployer', '-f', '-'], { input: configMap({ color: 'after-rebuild' }) });
    await fieldValue(fresh.id, '.data.color', 'after-rebuild');
    expect((await objects('name=app-config&cluster=west')).filter((o) => !o.deleted).map((o) => o.id)).toEqual([fresh.id]);

    // The deletions nobody saw are gap-fill, once each; east has none; no (cluster, uid, resourceVersion) twice.
    const events = await allEvents();
    const keys = events.map((e) => `${e.cluster}/${e.uid}/${e.resourceVersion}`);
    expect(keys.length).toBe(new Set(keys).size);
    const gapFilled = events.filter((e) => e.cluster === 'west' && e.source === 'gap-fill' && e.type === 'DELETED').map((e) => e.name);
    expect(gapFilled.filter((n) => n === 'app-config' || n === 'written-while-away').sort()).toEqual(['app-config', 'written-while-away']);
    expect(events.filter((e) => e.cluster === 'east' && e.source === 'gap-fill')).toEqual([]);
  });
});
