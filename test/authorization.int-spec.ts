import type { DataSource } from 'typeorm';
import { startApplication, type RunningApplication } from '../apps/bootstrap.js';
import { createDataSource } from '../libs/store/src/index.js';
import { createTestContext, freePort, waitFor, type TestContext } from '../libs/testing/src/index.js';
import { KubectlSandbox } from '../libs/testing/src/kubectl-sandbox.js';

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
    await kube.ok(['create', 'serviceaccount', 'viewer', '-n', 'team-a']);
    await kube.ok(['apply', '-f', '-'], { input: ROLE });
    viewer = (await kube.ok(['create', 'token', 'viewer', '-n', 'team-a'])).trim();
    const config = ctx.config({
      AUTH_MODE: 'kubernetes', API_HOST: '127.0.0.1', KUBECONFIG: kube.kubeconfig, PORT: String(await freePort()), AUTH_CACHE_TTL_MS: '500',
      LEADER_ELECTION: 'false', WATCHER_PORT: String(await freePort()), RESOURCES_INCLUDE: 'configmaps,secrets',
    });
    app = await startApplication(config, { roles: ['api', 'worker', 'watcher'], migrate: true });
    await waitFor('both ConfigMaps and the Secret projected', async () => {
      const rows: { n: string }[] = await ds.query(`SELECT count(*) AS n FROM ownership_states WHERE name IN ('settings', 'creds')`);
      return Number(rows[0]!.n) >= 3;
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

  it("an object's answers need get on it: team-a's fields answer, team-b's and the Secret's are 404 object-not-found", async () => {
    expect((await call(`/v1/objects/${await idOf('team-a', 'settings')}/fields?path=.data.mode`)).status).toBe(200);
    for (const id of [await idOf('team-b', 'settings'), await idOf('team-a', 'creds')]) {
      const res = await call(`/v1/objects/${id}/fields?path=.data.mode`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: 'object-not-found', message: `no object with id "${id}"`, parameter: 'id' });
    }
  });

  it('cluster-wide answers and replays need their ssa-audit.io rules: 403 forbidden without, 202 with', async () => {
    expect((await call('/v1/managers')).status).toBe(403);
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
