import type { DataSource } from 'typeorm';
import { startApplication, type RunningApplication } from '../apps/bootstrap.js';
import { createDataSource } from '../libs/store/src/index.js';
import { createTestContext, freePort, waitFor, type TestContext } from '../libs/testing/src/index.js';
import { KubectlSandbox } from '../libs/testing/src/kubectl-sandbox.js';
import { SANDBOX_ADMIN_TOKEN } from '../libs/sandbox/src/index.js';

// AUTH_MODE=kubernetes, end to end through the real pipeline: a ServiceAccount allowed get/list on
// ConfigMaps in team-a only sees exactly those; everything else does not exist for it; the
// service's own resources need their ssa-audit.io rules. RBAC is the sandbox's, driven by kubectl.

const ROLE = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: cm-reader, namespace: team-a }
rules:
  - apiGroups: [""]
    resources: [configmaps]
    verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: viewer-reads-cms, namespace: team-a }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: cm-reader }
subjects:
  - { kind: ServiceAccount, name: viewer, namespace: team-a }
`;

const REPLAYER = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: ssa-audit-replayer }
rules:
  - apiGroups: [ssa-audit.io]
    resources: [replays]
    verbs: [create, get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: viewer-replays }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ssa-audit-replayer }
subjects:
  - { kind: ServiceAccount, name: viewer, namespace: team-a }
`;

describe('authorization (AUTH_MODE=kubernetes, SubjectAccessReviews against the sandbox)', () => {
  let ctx: TestContext;
  let kube: KubectlSandbox;
  let app: RunningApplication;
  let ds: DataSource;
  let viewer: string;

  beforeAll(async () => {
    ctx = await createTestContext('authz');
    ds = await createDataSource(ctx.database.url, 2).initialize();
    kube = await KubectlSandbox.start();
    for (const ns of ['team-a', 'team-b']) {
      await kube.ok(['create', 'namespace', ns]);
      await kube.ok(['create', 'configmap', 'settings', '-n', ns, '--from-literal=mode=fast']);
    }
    await kube.ok(['create', 'secret', 'generic', 'creds', '-n', 'team-a', '--from-literal=password=hunter2']);
    await kube.ok(['create', 'configmap', 'tool', '-n', 'team-b', '--from-literal=x=1', '--field-manager=team-b-tool']);
    // The same field applied by kubectl-create in both namespaces: co-owned by its Update and Apply entries, a finding in each.
    for (const ns of ['team-a', 'team-b']) {
      await kube.ok(['apply', '--server-side', '--field-manager=kubectl-create', '-f', '-'], {
        input: `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings, namespace: ${ns} }\ndata: { mode: fast }\n`,
      });
    }
    await kube.ok(['create', 'serviceaccount', 'viewer', '-n', 'team-a']);
    await kube.ok(['apply', '-f', '-'], { input: ROLE });
    viewer = (await kube.ok(['create', 'token', 'viewer', '-n', 'team-a'])).trim();
    const config = ctx.config({
      AUTH_MODE: 'kubernetes', API_HOST: '127.0.0.1', KUBECONFIG: kube.kubeconfig, PORT: String(await freePort()), AUTH_CACHE_TTL_MS: '500',
      LEADER_ELECTION: 'false', WATCHER_PORT: String(await freePort()), RESOURCES_INCLUDE: 'configmaps,secrets',
    });
    app = await startApplication(config, { roles: ['api', 'worker', 'watcher'], migrate: true });
    await waitFor('both ConfigMaps and the Secret projected', async () => {
      const rows: { n: string }[] = await ds.query(`SELECT count(*) AS n FROM ownership_states WHERE name IN ('settings', 'creds', 'tool')`);
      return Number(rows[0]!.n) >= 4;
    }, 60_000, 200);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await ds?.destroy();
    await kube?.close();
    await ctx?.dispose();
  });

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${app.url}${path}`, { ...init, headers: { authorization: `Bearer ${viewer}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const idOf = async (namespace: string, name: string) =>
    ((await ds.query(`SELECT object_id FROM ownership_states WHERE namespace = $1 AND name = $2`, [namespace, name])) as { object_id: string }[])[0]!.object_id;

  it('lists only the objects the caller may get: team-a ConfigMaps, not team-b, not Secrets', async () => {
    const res = await call('/v1/objects?limit=500');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { namespace: string; kind: string; name: string }[] };
    expect(body.items.map((o) => `${o.kind} ${o.namespace}/${o.name}`)).toEqual(['ConfigMap team-a/settings']);
  });

  it("an object's answers need get on it: team-a's fields answer, team-b's and the Secret's are 404 object-not-found, word for word as an unknown id's", async () => {
    expect((await call(`/v1/objects/${await idOf('team-a', 'settings')}/fields?path=.data.mode`)).status).toBe(200);
    const unknown = '987654321';
    for (const at of ['', '&at=2030-01-01T00:00:00Z']) {
      const missing = await call(`/v1/objects/${unknown}/fields?path=.data.mode${at}`);
      expect(missing.status).toBe(404);
      const expected = (await missing.json()) as { message: string };
      for (const id of [await idOf('team-b', 'settings'), await idOf('team-a', 'creds')]) {
        const res = await call(`/v1/objects/${id}/fields?path=.data.mode${at}`);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ ...expected, message: expected.message.replace(unknown, id) });
      }
    }
  });

  it('aggregates count only the objects the caller may get: managers, their fields, findings, the event log and its stream', async () => {
    const asAdmin = async (path: string) => (await (await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${SANDBOX_ADMIN_TOKEN}` } })).json()) as { items: { manager: string }[] };
    const names = (b: { items: { manager: string }[] }) => b.items.map((m) => m.manager);
    expect(names(await asAdmin('/v1/managers'))).toEqual(expect.arrayContaining(['kubectl-create', 'team-b-tool']));
    const managers = await call('/v1/managers');
    expect(managers.status).toBe(200);
    expect(names((await managers.json()) as { items: { manager: string }[] })).toEqual(['kubectl-create']);

    const fieldsOf = async (manager: string) =>
      ((await (await call(`/v1/managers/${manager}/fields`)).json()) as { items: { object: { namespace: string; name: string } }[] }).items.map((i) => `${i.object.namespace}/${i.object.name}`);
    expect(await fieldsOf('kubectl-create')).toEqual(['team-a/settings']);
    expect(await fieldsOf('team-b-tool')).toEqual([]);

    type Findings = { items: { namespace: string; kind: string }[] };
    const everyFinding = (await (await fetch(`${app.url}/v1/findings?limit=500`, { headers: { authorization: `Bearer ${SANDBOX_ADMIN_TOKEN}` } })).json()) as Findings;
    expect(new Set(everyFinding.items.map((f) => `${f.kind} ${f.namespace}`))).toEqual(new Set(['ConfigMap team-a', 'ConfigMap team-b']));
    const findings = await call('/v1/findings?limit=500');
    expect(findings.status).toBe(200);
    const seen = ((await findings.json()) as Findings).items;
    expect(seen.length).toBeGreaterThan(0);
    for (const f of seen) expect(`${f.kind} ${f.namespace}`).toBe('ConfigMap team-a');

    const events = await call('/v1/events?limit=500');
    expect(events.status).toBe(200);
    const log = (await events.json()) as { items: { namespace: string; name: string }[]; nextCursor: string };
    expect([...new Set(log.items.map((e) => `${e.namespace}/${e.name}`))]).toEqual(['team-a/settings']);

    // The stream from the start of the log: team-b's and the Secret's events never arrive.
    const stream = await call('/v1/events/stream?since=0:0', { headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let text = '';
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline && !text.includes(log.nextCursor)) {
      const chunk = await Promise.race([reader.read(), new Promise<undefined>((r) => setTimeout(() => r(undefined), 500))]);
      if (chunk?.value) text += Buffer.from(chunk.value).toString('utf8');
    }
    await reader.cancel();
    const streamed = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)) as { namespace: string; name: string });
    expect(streamed.length).toBe(log.items.length);
    expect([...new Set(streamed.map((e) => `${e.namespace}/${e.name}`))]).toEqual(['team-a/settings']);
  });

  it('simulate needs get on the object its manifest names (403 whether it exists or not); the dead letters need the cluster-wide grant', async () => {
    const [{ name: cluster }] = (await ds.query(`SELECT name FROM clusters`)) as [{ name: string }];
    const simulate = (namespace: string, name: string) =>
      call('/v1/simulate/apply', {
        method: 'POST',
        body: JSON.stringify({ cluster, manager: 'me', manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { mode: 'slow' } } }),
      });
    expect((await simulate('team-a', 'settings')).status).toBe(200);
    for (const name of ['settings', 'no-such-configmap']) {
      const denied = await simulate('team-b', name);
      expect(denied.status).toBe(403);
      expect(await denied.json()).toMatchObject({ code: 'forbidden' });
    }
    expect((await call('/v1/dead-letters')).status).toBe(403);
  });

  it('replays need their ssa-audit.io rules: 403 forbidden without, 202 with', async () => {
    const denied = await call('/v1/replays', { method: 'POST', body: JSON.stringify({ scope: { kind: 'all' } }) });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ code: 'forbidden' });
    await kube.ok(['apply', '-f', '-'], { input: REPLAYER });
    await new Promise((r) => setTimeout(r, 700)); // the denial's cache entry expires
    expect((await call('/v1/replays', { method: 'POST', body: JSON.stringify({ scope: { kind: 'all' } }) })).status).toBe(202);
  });

  it('deleting the RoleBinding denies within the cache TTL', async () => {
    const id = await idOf('team-a', 'settings');
    expect((await call(`/v1/objects/${id}/ownership`)).status).toBe(200);
    await kube.ok(['delete', 'rolebinding', 'viewer-reads-cms', '-n', 'team-a']);
    await new Promise((r) => setTimeout(r, 700));
    expect((await call(`/v1/objects/${id}/ownership`)).status).toBe(404);
    expect(((await (await call('/v1/objects')).json()) as { items: unknown[] }).items).toEqual([]);
  });
});
