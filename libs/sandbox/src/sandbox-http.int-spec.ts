import { request } from 'node:http';
import { startSandbox, type Sandbox } from './index.js';

interface WatchEvent {
  type: string;
  object: Record<string, any>;
}

/** Opens a watch and collects its events until `close()`. */
function openWatch(url: string): { events: WatchEvent[]; next: (n: number, ms?: number) => Promise<WatchEvent[]>; close: () => void; status: Promise<number> } {
  const events: WatchEvent[] = [];
  let buf = '';
  let statusResolve: (n: number) => void = () => {};
  const status = new Promise<number>((r) => (statusResolve = r));
  const req = request(url, (res) => {
    statusResolve(res.statusCode ?? 0);
    res.on('data', (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        events.push(JSON.parse(buf.slice(0, i)) as WatchEvent);
        buf = buf.slice(i + 1);
      }
    });
    res.on('error', () => {});
  });
  req.on('error', () => {});
  req.end();
  const next = async (n: number, ms = 3000) => {
    const deadline = Date.now() + ms;
    while (events.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return events.slice(0, n);
  };
  return { events, next, close: () => req.destroy(), status };
}

const cm = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

describe('sandbox over HTTP', () => {
  let sb: Sandbox;
  const base = () => `${sb.url}/api/v1/namespaces/default/configmaps`;
  const post = (body: unknown, query = '') => fetch(`${base()}${query}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const patch = (name: string, type: string, body: string, query = '') => fetch(`${base()}/${name}${query}`, { method: 'PATCH', headers: { 'Content-Type': type }, body });

  beforeEach(async () => {
    sb = await startSandbox({ port: 0, bookmarkIntervalMs: 100, historySize: 1000 });
  });
  afterEach(async () => {
    await sb.close();
  });

  describe('discovery', () => {
    it('serves /version, /api, /apis and resource lists with subresources', async () => {
      expect(((await (await fetch(`${sb.url}/version`)).json()) as any).minor).toBe('32');
      const apis = (await (await fetch(`${sb.url}/apis`)).json()) as any;
      expect(apis.groups.map((g: any) => g.name)).toEqual(['apiextensions.k8s.io', 'apps', 'batch', 'coordination.k8s.io', 'networking.k8s.io', 'policy', 'rbac.authorization.k8s.io']);
      const apps = (await (await fetch(`${sb.url}/apis/apps/v1`)).json()) as any;
      expect(apps.resources.map((r: any) => r.name)).toContain('deployments/scale');
      const core = (await (await fetch(`${sb.url}/api/v1`)).json()) as any;
      expect(core.resources.find((r: any) => r.name === 'pods')).toMatchObject({ kind: 'Pod', namespaced: true, shortNames: ['po'] });
    });

    it('serves aggregated discovery to clients that ask for it (kubectl 1.32 does)', async () => {
      const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
      const res = await fetch(`${sb.url}/apis`, { headers: { Accept: accept } });
      expect(res.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
      const doc = (await res.json()) as any;
      expect(doc.kind).toBe('APIGroupDiscoveryList');
      const apps = doc.items.find((g: any) => g.metadata.name === 'apps');
      const deployments = apps.versions[0].resources.find((r: any) => r.resource === 'deployments');
      expect(deployments).toMatchObject({ responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' }, scope: 'Namespaced', shortNames: ['deploy'] });
      expect(deployments.subresources.map((r: any) => r.subresource)).toEqual(['scale', 'status']);
      const core = (await (await fetch(`${sb.url}/api`, { headers: { Accept: accept } })).json()) as any;
      expect(core.items).toHaveLength(1);
      expect(core.items[0].versions[0].version).toBe('v1');
    });

    it('publishes OpenAPI v3 per group-version with patch operations kubectl checks for fieldValidation', async () => {
      const index = (await (await fetch(`${sb.url}/openapi/v3`)).json()) as any;
      const doc = (await (await fetch(`${sb.url}${index.paths['apis/apps/v1'].serverRelativeURL}`)).json()) as any;
      const op = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
      expect(op['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', kind: 'Deployment', version: 'v1' });
      expect(op.parameters.map((p: any) => p.name)).toContain('fieldValidation');
      const containers = doc.components.schemas['io.k8s.api.core.v1.PodSpec'].properties.containers;
      expect(containers).toMatchObject({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-patch-merge-key': 'name' });
    });

    it('publishes OpenAPI v2 definitions (JSON) with direct references', async () => {
      const doc = (await (await fetch(`${sb.url}/openapi/v2`)).json()) as any;
      expect(doc.swagger).toBe('2.0');
      const d = doc.definitions['io.k8s.api.apps.v1.Deployment'];
      expect(d['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
      // The field's default beside the reference, as the apiserver publishes it.
      expect(d.properties.spec).toEqual({ $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec', default: {} });
      expect(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']).toBeDefined();
    });
  });

  describe('list', () => {
    it('filters by label and field selectors and pages with limit/continue', async () => {
      for (const [n, tier] of [['a', 'web'], ['b', 'db'], ['c', 'web'], ['d', 'web']] as const) expect((await post(cm(n, { tier }))).status).toBe(201);
      const web = (await (await fetch(`${base()}?labelSelector=tier%3Dweb`)).json()) as any;
      expect(web.kind).toBe('ConfigMapList');
      expect(web.items.map((i: any) => i.metadata.name)).toEqual(['a', 'c', 'd']);
      expect(web.items[0].kind).toBeUndefined();
      const byName = (await (await fetch(`${base()}?fieldSelector=metadata.name!%3Da`)).json()) as any;
      expect(byName.items.map((i: any) => i.metadata.name)).toEqual(['b', 'c', 'd']);
      const p1 = (await (await fetch(`${base()}?limit=3`)).json()) as any;
      expect(p1.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b', 'c']);
      expect(p1.metadata.remainingItemCount).toBe(1);
      const p2 = (await (await fetch(`${base()}?limit=3&continue=${encodeURIComponent(p1.metadata.continue)}`)).json()) as any;
      expect(p2.items.map((i: any) => i.metadata.name)).toEqual(['d']);
      expect(p2.metadata.continue).toBeUndefined();
      expect((await fetch(`${base()}?labelSelector=a%3Db%3Dc`)).status).toBe(400);
      expect((await fetch(`${base()}?fieldSelector=spec.x%3Dy`)).status).toBe(400);
    });
  });

  describe('watch', () => {
    it('streams JSON lines: initial ADDED, then changes; label selectors turn changes into ADDED/DELETED', async () => {
      await post(cm('a', { tier: 'web' }));
      const w = openWatch(`${base()}?watch=true&labelSelector=tier%3Dweb`);
      expect(await w.status).toBe(200);
      await w.next(1);
      await patch('a', 'application/merge-patch+json', '{"data":{"x":"1"}}');
      await patch('a', 'application/merge-patch+json', '{"metadata":{"labels":{"tier":"db"}}}');
      await post(cm('b', { tier: 'db' }));
      await patch('b', 'application/merge-patch+json', '{"metadata":{"labels":{"tier":"web"}}}');
      await fetch(`${base()}/b`, { method: 'DELETE' });
      const ev = await w.next(5);
      w.close();
      expect(ev.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'MODIFIED a', 'DELETED a', 'ADDED b', 'DELETED b']);
      expect(ev[0]!.object.kind).toBe('ConfigMap');
    });

    it('resumes from a resourceVersion', async () => {
      const created = (await (await post(cm('a'))).json()) as any;
      await patch('a', 'application/merge-patch+json', '{"data":{"x":"1"}}');
      await post(cm('b'));
      const w = openWatch(`${base()}?watch=1&resourceVersion=${created.metadata.resourceVersion}`);
      const ev = await w.next(2);
      w.close();
      expect(ev.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['MODIFIED a', 'ADDED b']);
    });

    it('answers an ERROR event with a 410 Expired Status when the resourceVersion was compacted', async () => {
      const created = (await (await post(cm('a'))).json()) as any;
      await post(cm('b'));
      expect((await fetch(`${sb.url}/sandbox/compact`, { method: 'POST' })).status).toBe(200);
      const w = openWatch(`${base()}?watch=1&resourceVersion=${created.metadata.resourceVersion}`);
      const [ev] = await w.next(1);
      w.close();
      expect(ev!.type).toBe('ERROR');
      expect(ev!.object).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
      expect(ev!.object['message']).toMatch(/^too old resource version: \d+ \(\d+\)$/);
    });

    it('sends BOOKMARK events when asked, carrying the current resourceVersion', async () => {
      await post(cm('a'));
      const rv = String(sb.cluster.store.resourceVersion);
      const w = openWatch(`${base()}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true`);
      const [ev] = await w.next(1);
      w.close();
      expect(ev).toEqual({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: rv } } });
    });

    it('ends the initial events with an annotated bookmark for sendInitialEvents', async () => {
      await post(cm('a'));
      const w = openWatch(`${base()}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
      const ev = await w.next(2);
      w.close();
      expect(ev[0]!.type).toBe('ADDED');
      expect(ev[1]!.object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    });
  });

  describe('errors are Status objects and never corrupt the store', () => {
    it('404, 409 AlreadyExists, 400 malformed, 415, 422 invalid name', async () => {
      const missing = await fetch(`${base()}/nope`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'configmaps "nope" not found',
        reason: 'NotFound',
        details: { name: 'nope', kind: 'configmaps' },
        code: 404,
      });
      await post(cm('a', {}, { k: 'v' }));
      const dup = await post(cm('a'));
      expect(dup.status).toBe(409);
      expect(((await dup.json()) as any).reason).toBe('AlreadyExists');
      expect((await fetch(`${base()}/%E0%A4%A`)).status).toBe(400);
      expect((await fetch(`${sb.url}/apis/nope/v1/things`)).status).toBe(404);
      expect((await fetch(`${base()}/a/b/c/d`)).status).toBe(404);
      const bad = await fetch(base(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"apiVersion":' });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as any).reason).toBe('BadRequest');
      const text = await patch('a', 'text/plain', 'x');
      expect(text.status).toBe(415);
      expect(((await text.json()) as any).reason).toBe('UnsupportedMediaType');
      const invalid = await post(cm('Not_Valid'));
      expect(invalid.status).toBe(422);
      const body = (await invalid.json()) as any;
      expect(body.reason).toBe('Invalid');
      expect(body.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.name' });
      const badPatch = await patch('a', 'application/json-patch+json', '[{"op":"replace","path":"/data/nope/x","value":1}]');
      expect(badPatch.status).toBe(422);
      const badType = await patch('a', 'application/merge-patch+json', '{"data":{"k":{"nested":true}}}');
      expect(badType.status).toBe(400);
      const stored = (await (await fetch(`${base()}/a`)).json()) as any;
      expect(stored.data).toEqual({ k: 'v' });
      expect(stored.metadata.resourceVersion).toBe(String(sb.cluster.store.resourceVersion));
    });

    it('apply: fieldManager required (422), conflicts are 409 with the exact message, force wins', async () => {
      const apply = (mgr: string, body: string, force = false) => patch('a', 'application/apply-patch+yaml', body, `?fieldManager=${mgr}${force ? '&force=true' : ''}`);
      expect((await patch('a', 'application/apply-patch+yaml', 'apiVersion: v1\nkind: ConfigMap\n')).status).toBe(422);
      expect((await apply('one', 'apiVersion: v1\nkind: ConfigMap\ndata: {k: "1"}\n')).status).toBe(201);
      const c = await apply('two', 'apiVersion: v1\nkind: ConfigMap\ndata: {k: "2"}\n');
      expect(c.status).toBe(409);
      expect(await c.json()).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Apply failed with 1 conflict: conflict with "one": .data.k',
        reason: 'Conflict',
        details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "one"', field: '.data.k' }] },
        code: 409,
      });
      expect((await apply('two', 'apiVersion: v1\nkind: ConfigMap\ndata: {k: "2"}\n', true)).status).toBe(200);
      expect((await apply('two', 'apiVersion: v1\nkind: Secret\n')).status).toBe(400);
      expect((await apply('two', 'apiVersion: v1\nkind: ConfigMap\ndata: [1\n')).status).toBe(400);
      const obj = (await (await fetch(`${base()}/a`)).json()) as any;
      expect(obj.data).toEqual({ k: '2' });
      expect(obj.metadata.managedFields.map((e: any) => e.manager)).toEqual(['two']);
    });

    it('unknown fields: 400 with fieldValidation=Strict, a Warning header otherwise', async () => {
      const body = { ...cm('u'), bogus: 1 };
      const strict = await post(body, '?fieldValidation=Strict');
      expect(strict.status).toBe(400);
      expect(((await strict.json()) as any).message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"');
      const warn = await post(body);
      expect(warn.status).toBe(201);
      expect(warn.headers.get('warning')).toBe('299 - "unknown field \\"bogus\\""');
      expect(((await warn.json()) as any).bogus).toBeUndefined();
    });

    it('optimistic concurrency: a stale resourceVersion on PUT is a 409 Conflict', async () => {
      const created = (await (await post(cm('a'))).json()) as any;
      await patch('a', 'application/merge-patch+json', '{"data":{"x":"1"}}');
      const put = await fetch(`${base()}/a`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(created) });
      expect(put.status).toBe(409);
      expect(((await put.json()) as any).message).toBe(
        'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
      );
    });
  });

  describe('status and scale subresources, garbage collection', () => {
    const deployments = () => `${sb.url}/apis/apps/v1/namespaces/default/deployments`;
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };

    it('main-resource writes keep the status; /status writes keep the spec and record the subresource', async () => {
      await fetch(`${deployments()}?fieldManager=me`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...dep, status: { replicas: 9 } }) });
      let d = (await (await fetch(`${deployments()}/web`)).json()) as any;
      expect(d.status).toEqual({});
      await fetch(`${deployments()}/web/status?fieldManager=ctrl`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"spec":{"replicas":7},"status":{"replicas":2}}' });
      d = (await (await fetch(`${deployments()}/web`)).json()) as any;
      expect(d.spec.replicas).toBe(2);
      expect(d.status.replicas).toBe(2);
      expect(d.metadata.managedFields.find((e: any) => e.manager === 'ctrl')).toMatchObject({ operation: 'Update', subresource: 'status', fieldsV1: { 'f:status': { 'f:replicas': {} } } });
      const applied = await fetch(`${deployments()}/web/status?fieldManager=ctrl2&force=true`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/apply-patch+yaml' },
        body: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 9}\nstatus: {replicas: 3}\n',
      });
      expect(applied.status).toBe(200);
      d = (await applied.json()) as any;
      expect([d.spec.replicas, d.status.replicas]).toEqual([2, 3]);
      expect(d.metadata.managedFields.find((e: any) => e.manager === 'ctrl2')).toMatchObject({ operation: 'Apply', subresource: 'status', fieldsV1: { 'f:status': { 'f:replicas': {} } } });
      const scale = (await (await fetch(`${deployments()}/web/scale`)).json()) as any;
      expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, status: { replicas: 3, selector: 'app=web' } });
    });

    it('deleting an owner deletes its dependents; Orphan keeps them without the reference', async () => {
      const owner = (await (await fetch(`${deployments()}?fieldManager=me`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(dep) })).json()) as any;
      const ref = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: owner.metadata.uid }];
      await post({ ...cm('child1'), metadata: { name: 'child1', ownerReferences: ref } });
      await post({ ...cm('child2'), metadata: { name: 'child2', ownerReferences: ref } });
      await fetch(`${deployments()}/web`, { method: 'DELETE' });
      expect((await fetch(`${base()}/child1`)).status).toBe(404);
      const owner2 = (await (await fetch(`${deployments()}?fieldManager=me`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(dep) })).json()) as any;
      await post({ ...cm('kept'), metadata: { name: 'kept', ownerReferences: [{ ...ref[0], uid: owner2.metadata.uid }] } });
      await fetch(`${deployments()}/web`, { method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: '{"propagationPolicy":"Orphan"}' });
      const kept = (await (await fetch(`${base()}/kept`)).json()) as any;
      expect(kept.metadata.ownerReferences).toBeUndefined();
    });

    it('finalizers hold a deleted object (deletionTimestamp set) until the last one is removed', async () => {
      await post({ ...cm('f'), metadata: { name: 'f', finalizers: ['example.com/hold'] } });
      const del = await fetch(`${base()}/f`, { method: 'DELETE' });
      expect(del.status).toBe(200);
      const held = (await (await fetch(`${base()}/f`)).json()) as any;
      expect(held.metadata.deletionTimestamp).toMatch(/Z$/);
      expect(held.metadata.deletionGracePeriodSeconds).toBe(0);
      await patch('f', 'application/merge-patch+json', '{"metadata":{"finalizers":null}}');
      expect((await fetch(`${base()}/f`)).status).toBe(404);
    });

    it('deleting a namespace deletes what is in it', async () => {
      await fetch(`${sb.url}/api/v1/namespaces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tmp' } }) });
      await fetch(`${sb.url}/api/v1/namespaces/tmp/configmaps`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(cm('x')) });
      const events: string[] = [];
      const stop = sb.cluster.watch(sb.cluster.resourceFor('', 'v1', 'namespaces')!, undefined, undefined, (e) => events.push(`${e.type} ${(e.object['status'] as any)?.phase}`));
      await fetch(`${sb.url}/api/v1/namespaces/tmp`, { method: 'DELETE' });
      stop();
      expect(events).toEqual(['MODIFIED Terminating', 'DELETED Terminating']);
      expect((await fetch(`${sb.url}/api/v1/namespaces/tmp/configmaps/x`)).status).toBe(404);
      expect((await fetch(`${sb.url}/api/v1/namespaces/tmp/configmaps`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(cm('y')) })).status).toBe(404);
    });
  });
});

describe('content negotiation', () => {
  it('answers 406 when the client accepts neither JSON nor anything', async () => {
    const sb = await startSandbox({ port: 0 });
    try {
      const res = await fetch(`${sb.url}/api/v1/namespaces`, { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
      expect(res.status).toBe(406);
      expect(((await res.json()) as any).reason).toBe('NotAcceptable');
      const table = await fetch(`${sb.url}/api/v1/namespaces`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
      expect(table.status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});

describe('custom resources', () => {
  it('are pruned to their schema (unknown fields dropped; rejected with fieldValidation=Strict)', async () => {
    const sb = await startSandbox({ port: 0 });
    try {
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'things.example.com' },
        spec: {
          group: 'example.com',
          scope: 'Namespaced',
          names: { plural: 'things', kind: 'Thing' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
        },
      };
      const created = await fetch(`${sb.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(crd) });
      expect(created.status).toBe(201);
      const stored = (await created.json()) as any;
      expect(stored.metadata.name).toBe('things.example.com');
      const crdNow = (await (await fetch(`${sb.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.example.com`)).json()) as any;
      expect(crdNow.status.conditions.map((c: any) => `${c.type}=${c.status}`)).toEqual(['NamesAccepted=True', 'Established=True']);
      const url = `${sb.url}/apis/example.com/v1/namespaces/default/things`;
      const thing = { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' }, spec: { size: 1, extra: true }, top: 1 };
      const strict = await fetch(`${url}?fieldValidation=Strict`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(thing) });
      expect(strict.status).toBe(400);
      expect(((await strict.json()) as any).message).toBe('strict decoding error: unknown field "spec.extra", unknown field "top"');
      const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(thing) });
      expect(res.status).toBe(201);
      const t = (await res.json()) as any;
      expect(t.spec).toEqual({ size: 1 });
      expect(t.top).toBeUndefined();
      const smp = await fetch(`${url}/t`, { method: 'PATCH', headers: { 'Content-Type': 'application/strategic-merge-patch+json' }, body: '{}' });
      expect(smp.status).toBe(415);
      expect((await fetch(`${url}/t/scale`)).status).toBe(404);
    } finally {
      await sb.close();
    }
  });

  it('serve /scale when the CRD declares it: replicas through the engine, the selector from labelSelectorPath', async () => {
    const sb = await startSandbox({ port: 0 });
    try {
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'pools.example.com' },
        spec: {
          group: 'example.com',
          scope: 'Namespaced',
          names: { plural: 'pools', kind: 'Pool' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.ready', labelSelectorPath: '.status.selector' } },
              schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } }, status: { type: 'object', properties: { ready: { type: 'integer' }, selector: { type: 'string' } } } } } },
            },
          ],
        },
      };
      await fetch(`${sb.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(crd) });
      const url = `${sb.url}/apis/example.com/v1/namespaces/default/pools`;
      const apply = await fetch(`${url}/p?fieldManager=op`, { method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: 'apiVersion: example.com/v1\nkind: Pool\nspec: {replicas: 2}\n' });
      expect(apply.status).toBe(201);
      await fetch(`${url}/p/status?fieldManager=ctrl`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"status":{"ready":1,"selector":"app=p"}}' });
      const scale = (await (await fetch(`${url}/p/scale`)).json()) as any;
      expect(scale).toMatchObject({ kind: 'Scale', spec: { replicas: 2 }, status: { replicas: 1, selector: 'app=p' } });
      const scaled = await fetch(`${url}/p/scale?fieldManager=hpa`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"spec":{"replicas":5}}' });
      expect(scaled.status).toBe(200);
      const p = (await (await fetch(`${url}/p`)).json()) as any;
      expect(p.spec.replicas).toBe(5);
      expect(p.metadata.managedFields.find((e: any) => e.manager === 'hpa')).toMatchObject({ operation: 'Update', subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
      expect(p.metadata.managedFields.find((e: any) => e.manager === 'op')).toBeUndefined();
      const view = (await (await fetch(`${url}/p/scale`)).json()) as any;
      expect(view.metadata.managedFields).toEqual([
        { manager: 'hpa', operation: 'Update', apiVersion: 'autoscaling/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' },
      ]);
    } finally {
      await sb.close();
    }
  });
});

describe('tables', () => {
  it('answers kubectl get with a meta.k8s.io Table when asked', async () => {
    const sb = await startSandbox({ port: 0 });
    try {
      const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
      const res = await fetch(`${sb.url}/api/v1/namespaces`, { headers: { Accept: accept } });
      const t = (await res.json()) as any;
      expect(t.kind).toBe('Table');
      expect(t.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Status', 'Age']);
      expect(t.rows[0].cells.slice(0, 2)).toEqual(['default', 'Active']);
      expect(t.rows[0].object.kind).toBe('PartialObjectMetadata');
      const plain = (await (await fetch(`${sb.url}/api/v1/namespaces`)).json()) as any;
      expect(plain.kind).toBe('NamespaceList');
    } finally {
      await sb.close();
    }
  });
});
