import { ApiError } from './api-error.js';
import { Cluster, managerName } from './cluster.js';

const clock = () => new Date('2026-01-01T10:00:00.123Z');

describe('managerName (05 §1)', () => {
  it.each([
    ['kubectl-edit', 'kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07', 'kubectl-edit'],
    [undefined, 'kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07', 'kubectl'],
    [undefined, 'kube-controller-manager/v1.32.0 (linux/amd64)/leader-election', 'kube-controller-manager'],
    [undefined, 'bad\u0001agent/1', 'badagent'],
    [undefined, undefined, 'unknown'],
    ['', '', 'unknown'],
  ])('fieldManager %p, User-Agent %p → %p', (fm, ua, want) => {
    expect(managerName(fm, ua)).toBe(want);
  });

  it('truncates User-Agent names to 128 bytes', () => {
    expect(managerName(undefined, 'x'.repeat(300))).toHaveLength(128);
  });
});

describe('Cluster', () => {
  const c = () => new Cluster({ now: clock });
  const cms = (cl: Cluster) => cl.resourceFor('', 'v1', 'configmaps')!;
  const deps = (cl: Cluster) => cl.resourceFor('apps', 'v1', 'deployments')!;
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } } } };

  it('takes a missing apiVersion and kind from the endpoint (as @kubernetes/client-node sends creates)', () => {
    const cl = c();
    const out = cl.create(cms(cl), 'default', { metadata: { name: 'a' }, data: { k: 'v' } }, { userAgent: 'node-fetch/1.0' }) as any;
    expect(out.kind).toBe('ConfigMap');
    expect(out.metadata.managedFields[0].manager).toBe('node-fetch');
  });

  it('starts with the default namespaces, owned by kube-apiserver', () => {
    const cl = c();
    const ns = cl.list(cl.resourceFor('', 'v1', 'namespaces')!, undefined).items;
    expect(ns.map((n) => (n['metadata'] as any).name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect((ns[0]!['metadata'] as any).managedFields[0]).toMatchObject({ manager: 'kube-apiserver', operation: 'Update', time: '2026-01-01T10:00:00Z' });
  });

  it('a create owns what defaulting added; generation starts at 1 and moves with the spec only', () => {
    const cl = c();
    const d = cl.create(deps(cl), 'default', deployment, { fieldManager: 'me' }) as any;
    expect(d.spec.replicas).toBe(1);
    expect(d.metadata.generation).toBe(1);
    expect(d.metadata.managedFields[0].fieldsV1['f:spec']['f:replicas']).toEqual({});
    const ref = { resource: deps(cl), namespace: 'default', name: 'web' };
    const labelled = cl.patch(ref, '', 'merge', '{"metadata":{"labels":{"x":"y"}}}', { fieldManager: 'labeler' }) as any;
    expect(labelled.metadata.generation).toBe(1);
    const scaled = cl.patch(ref, '', 'merge', '{"spec":{"replicas":3}}', { fieldManager: 'me' }) as any;
    expect(scaled.metadata.generation).toBe(2);
  });

  it('a write that changes nothing keeps the resourceVersion', () => {
    const cl = c();
    const created = cl.create(cms(cl), 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } }, { fieldManager: 'me' }) as any;
    const ref = { resource: cms(cl), namespace: 'default', name: 'a' };
    const same = cl.patch(ref, '', 'merge', '{"data":{"k":"v"}}', { fieldManager: 'other' }) as any;
    expect(same.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    const applied = cl.patch(ref, '', 'apply', 'apiVersion: v1\nkind: ConfigMap\ndata: {k: v}\n', { fieldManager: 'me-too' }) as any;
    expect(applied.metadata.managedFields.map((e: any) => e.manager)).toEqual(['me-too', 'me']);
  });

  it('a resourceVersion in an applied config is a precondition', () => {
    const cl = c();
    const ref = { resource: cms(cl), namespace: 'default', name: 'a' };
    const first = cl.patch(ref, '', 'apply', 'apiVersion: v1\nkind: ConfigMap\ndata: {k: v}\n', { fieldManager: 'm' }) as any;
    const stale = `apiVersion: v1\nkind: ConfigMap\nmetadata: {resourceVersion: "1"}\ndata: {k: w}\n`;
    expect(() => cl.patch(ref, '', 'apply', stale, { fieldManager: 'm' })).toThrow('the object has been modified');
    const fresh = `apiVersion: v1\nkind: ConfigMap\nmetadata: {resourceVersion: "${first.metadata.resourceVersion}"}\ndata: {k: w}\n`;
    expect((cl.patch(ref, '', 'apply', fresh, { fieldManager: 'm' }) as any).data).toEqual({ k: 'w' });
  });

  it('main-resource writes cannot change the status; /status writes cannot change the spec', () => {
    const cl = c();
    cl.create(deps(cl), 'default', deployment, { fieldManager: 'me' });
    const ref = { resource: deps(cl), namespace: 'default', name: 'web' };
    const a = cl.patch(ref, '', 'merge', '{"status":{"replicas":4}}', { fieldManager: 'me' }) as any;
    expect(a.status).toEqual({});
    const b = cl.patch(ref, 'status', 'merge', '{"spec":{"replicas":9},"status":{"replicas":4}}', { fieldManager: 'ctrl' }) as any;
    expect(b.spec.replicas).toBe(1);
    expect(b.status.replicas).toBe(4);
  });

  it('a Pod /status write resets the spec and ownerReferences but keeps label changes (the pod status strategy)', () => {
    const cl = c();
    const pods = cl.resourceFor('', 'v1', 'pods')!;
    cl.create(pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } }, { fieldManager: 'me' });
    const out = cl.patch({ resource: pods, namespace: 'default', name: 'p' }, 'status', 'merge', '{"metadata":{"labels":{"l":"v"}},"spec":{"nodeName":"n"},"status":{"phase":"Running"}}', { fieldManager: 'kubelet' }) as any;
    expect(out.spec.nodeName).toBeUndefined();
    expect(out.metadata.labels).toEqual({ l: 'v' });
    expect(out.status.phase).toBe('Running');
    expect(out.metadata.managedFields.find((e: any) => e.manager === 'kubelet')).toMatchObject({ subresource: 'status' });
  });

  it('rejects bad requests with the apiserver statuses and leaves the store as it was', () => {
    const cl = c();
    const rv = cl.store.resourceVersion;
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as ApiError).code;
      }
      return 0;
    };
    expect(code(() => cl.create(cms(cl), 'nope', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, {}))).toBe(404);
    expect(code(() => cl.create(cms(cl), 'default', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a' } }, {}))).toBe(400);
    expect(code(() => cl.create(cms(cl), 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }, {}))).toBe(422);
    expect(code(() => cl.create(cms(cl), 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 1 } }, {}))).toBe(400);
    expect(code(() => cl.create(cms(cl), 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, { fieldManager: 'x'.repeat(129) }))).toBe(422);
    expect(code(() => cl.create(cms(cl), 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, { force: true }))).toBe(422);
    expect(cl.store.resourceVersion).toBe(rv);
  });
});

describe('defaulting after apply sees the Go zero values of the engine encoding', () => {
  it('defaults a Service port targetPort and a StatefulSet updateStrategy', () => {
    const cl = new Cluster({ now: clock });
    const svc = cl.resourceFor('', 'v1', 'services')!;
    const s = cl.patch({ resource: svc, namespace: 'default', name: 's' }, '', 'apply', 'apiVersion: v1\nkind: Service\nspec: {ports: [{port: 443}]}\n', { fieldManager: 'a' }) as any;
    expect(s.spec.ports).toEqual([{ port: 443, protocol: 'TCP', targetPort: 443 }]);
    const sts = cl.resourceFor('apps', 'v1', 'statefulsets')!;
    const body = 'apiVersion: apps/v1\nkind: StatefulSet\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}\n';
    const o = cl.patch({ resource: sts, namespace: 'default', name: 's' }, '', 'apply', body, { fieldManager: 'a' }) as any;
    expect(o.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    expect(JSON.stringify(o.metadata.managedFields)).not.toContain('updateStrategy');
  });
});

describe('Secrets: stringData is folded into data as the apiserver converts to its internal version', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const setup = () => {
    const cl = new Cluster({ now: clock });
    const rt = cl.resourceFor('', 'v1', 'secrets')!;
    return { cl, rt, ref: { resource: rt, namespace: 'default', name: 's' } };
  };
  const entry = (o: any, manager: string) => o.metadata.managedFields.find((e: any) => e.manager === manager);

  it('create: stored and returned without stringData; the Update entry owns the data keys (the field manager sees the internal object)', () => {
    const { cl, rt, ref } = setup();
    const events: unknown[] = [];
    cl.watch(rt, 'default', undefined, (e) => events.push(e.object));
    const body = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: b64('old'), b: b64('b') }, stringData: { a: 'new', c: 'c' } };
    const out = cl.create(rt, 'default', body, { fieldManager: 'creator' }) as any;
    expect(out.stringData).toBeUndefined();
    expect(out.data).toEqual({ a: b64('new'), b: b64('b'), c: b64('c') });
    expect(entry(out, 'creator').fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:a': {}, 'f:b': {}, 'f:c': {} }, 'f:type': {} });
    expect(cl.get(ref)).toEqual(out);
    expect(events).toEqual([out]);
  });

  it('PUT and strategic/merge patches with stringData: the writer owns the data keys it changed', () => {
    const { cl, rt, ref } = setup();
    cl.create(rt, 'default', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: b64('1') } }, { fieldManager: 'creator' });
    const put = cl.update(ref, '', { ...cl.get(ref), stringData: { a: '2', b: 'b' } }, { fieldManager: 'replacer' }) as any;
    expect(put.stringData).toBeUndefined();
    expect(put.data).toEqual({ a: b64('2'), b: b64('b') });
    expect(entry(put, 'replacer').fieldsV1).toEqual({ 'f:data': { 'f:a': {}, 'f:b': {} } });
    // The creator keeps the data map itself (FieldsV1 writes a childless member as {}).
    expect(entry(put, 'creator').fieldsV1).toEqual({ 'f:data': {}, 'f:type': {} });
    const smp = cl.patch(ref, '', 'strategic', '{"stringData":{"c":"c"}}', { fieldManager: 'patcher' }) as any;
    expect(smp.data).toEqual({ a: b64('2'), b: b64('b'), c: b64('c') });
    expect(smp.stringData).toBeUndefined();
    expect(entry(smp, 'patcher').fieldsV1).toEqual({ 'f:data': { 'f:c': {} } });
    // Same value again: nothing changed, so nothing is owned and nothing is written.
    const same = cl.patch(ref, '', 'merge', '{"stringData":{"c":"c"}}', { fieldManager: 'other' }) as any;
    expect(same.metadata.resourceVersion).toBe(smp.metadata.resourceVersion);
    expect(entry(same, 'other')).toBeUndefined();
  });

  it('apply: the Apply entry owns f:stringData (the config is typed before conversion); data keys are owned by nobody', () => {
    const { cl, ref } = setup();
    const cfg = 'apiVersion: v1\nkind: Secret\nstringData: {user: admin}\ntype: Opaque\n';
    const out = cl.patch(ref, '', 'apply', cfg, { fieldManager: 'applier' }) as any;
    expect(out.stringData).toBeUndefined();
    expect(out.data).toEqual({ user: b64('admin') });
    expect(out.metadata.managedFields).toEqual([
      { manager: 'applier', operation: 'Apply', apiVersion: 'v1', time: '2026-01-01T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:stringData': { 'f:user': {} }, 'f:type': {} } },
    ]);
    // Re-applying the same config changes nothing: same resourceVersion (old timestamps kept).
    const again = cl.patch(ref, '', 'apply', cfg, { fieldManager: 'applier' }) as any;
    expect(again.metadata.resourceVersion).toBe(out.metadata.resourceVersion);
    // Dropping the key from the config drops its ownership, not the data key (kubernetes#108008).
    const dropped = cl.patch(ref, '', 'apply', 'apiVersion: v1\nkind: Secret\nstringData: {pw: x}\ntype: Opaque\n', { fieldManager: 'applier' }) as any;
    expect(dropped.data).toEqual({ user: b64('admin'), pw: b64('x') });
    expect(entry(dropped, 'applier').fieldsV1).toEqual({ 'f:stringData': { 'f:pw': {} }, 'f:type': {} });
  });

  it('apply: a second applier of the same stringData key conflicts, even with the same value (the key is always added)', () => {
    const { cl, ref } = setup();
    const cfg = 'apiVersion: v1\nkind: Secret\nstringData: {user: admin}\n';
    cl.patch(ref, '', 'apply', cfg, { fieldManager: 'alice' });
    expect(() => cl.patch(ref, '', 'apply', cfg, { fieldManager: 'bob' })).toThrow('conflict with "alice": .stringData.user');
  });

  it('dryRun answers with the folded object', () => {
    const { cl, rt } = setup();
    const out = cl.create(rt, 'default', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { a: 'a' } }, { fieldManager: 'm', dryRun: true }) as any;
    expect(out).toMatchObject({ data: { a: b64('a') }, type: 'Opaque' });
    expect(out.stringData).toBeUndefined();
  });
});
