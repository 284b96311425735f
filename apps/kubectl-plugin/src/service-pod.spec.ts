import { choosePodForService, containerPortOf, labelSelectorOf, type PodLike, type ServiceLike } from './service-pod.js';

// The Service of deploy/base/api.yaml.
const SERVICE: ServiceLike = {
  metadata: { name: 'ssa-audit-api' },
  spec: {
    selector: { 'app.kubernetes.io/name': 'ssa-audit', 'app.kubernetes.io/component': 'api' },
    ports: [{ name: 'http', port: 3000, targetPort: 'http' }],
  },
};

const pod = (name: string, opts: { phase?: string; ready?: boolean; deleting?: boolean; port?: number } = {}): PodLike => ({
  metadata: { name, ...(opts.deleting ? { deletionTimestamp: '2026-11-25T00:00:00Z' } : {}) },
  spec: { containers: [{ ports: [{ name: 'http', containerPort: opts.port ?? 3000 }] }] },
  status: { phase: opts.phase ?? 'Running', conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }] },
});

describe('choosePodForService', () => {
  it('picks a ready pod and resolves the named target port', () => {
    expect(choosePodForService(SERVICE, [pod('api-b', { port: 8080 })])).toEqual({ ok: true, pod: 'api-b', port: 8080 });
  });

  it('skips pods that are not Running, not Ready or being deleted; the first ready one by name wins', () => {
    const pods = [pod('api-a', { ready: false }), pod('api-b', { phase: 'Pending' }), pod('api-c', { deleting: true }), pod('api-e'), pod('api-d')];
    expect(choosePodForService(SERVICE, pods)).toEqual({ ok: true, pod: 'api-d', port: 3000 });
  });

  it('explains why there is no pod to forward to', () => {
    expect(choosePodForService(SERVICE, [])).toEqual({ ok: false, reason: expect.stringContaining('no ready pod behind Service ssa-audit-api') });
    expect(choosePodForService(SERVICE, [pod('api-a', { ready: false })])).toMatchObject({ ok: false });
    expect(choosePodForService({ metadata: { name: 'x' }, spec: { ports: [] } }, [pod('a')])).toEqual({ ok: false, reason: 'Service x has no ports' });
  });

  it('uses a numeric targetPort as is, and the port itself without a targetPort', () => {
    expect(choosePodForService({ spec: { ports: [{ name: 'http', port: 80, targetPort: 9000 }] } }, [pod('a')])).toEqual({ ok: true, pod: 'a', port: 9000 });
    expect(choosePodForService({ spec: { ports: [{ port: 3000 }] } }, [pod('a')])).toEqual({ ok: true, pod: 'a', port: 3000 });
  });
});

describe('containerPortOf', () => {
  it('resolves names and numeric strings', () => {
    expect(containerPortOf('http', pod('a', { port: 3001 }))).toBe(3001);
    expect(containerPortOf('3002', pod('a'))).toBe(3002);
    expect(containerPortOf('metrics', pod('a'))).toBeUndefined();
  });
});

describe('labelSelectorOf', () => {
  it('joins the selector as a label selector', () => {
    expect(labelSelectorOf(SERVICE)).toBe('app.kubernetes.io/name=ssa-audit,app.kubernetes.io/component=api');
    expect(labelSelectorOf({ spec: {} })).toBeUndefined();
  });
});
