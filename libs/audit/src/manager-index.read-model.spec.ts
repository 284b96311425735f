import { ManagerTotals, managerFields, managerIndex } from './manager-index.read-model.js';
import { foldObjectOwnership } from './object-ownership.projection.js';
import { caseEvents, caseNames, caseStates } from './testing/conformance-events.js';

function stateOf(name: string) {
  const { events, resolver } = caseEvents(name);
  return foldObjectOwnership(events, resolver).state!;
}

describe('managerIndex and managerFields', () => {
  const d = stateOf('incident-d-hpa-scale-subresource');
  const b = stateOf('incident-b-configmap-ghost-label');

  it('lists every manager with its identities and the objects and fields it owns', () => {
    const idx = managerIndex([d, b]);
    expect(idx.map((m) => m.manager)).toEqual(['flux-controller', 'horizontal-pod-autoscaler', 'kubectl', 'kubectl-client-side-apply']);
    const hpa = idx.find((m) => m.manager === 'horizontal-pod-autoscaler')!;
    expect(hpa.identities).toEqual([{ operation: 'Update', apiVersion: 'apps/v1', subresource: 'scale' }]);
    expect(hpa.objectCount).toBe(1);
    expect(hpa.objects[0]).toMatchObject({ objectId: d.objectId, kind: 'Deployment', namespace: 'default', name: 'web' });
    expect(hpa.objects[0]!.fields).toEqual([
      { path: '.spec.replicas', fieldsV1Path: 'f:spec.f:replicas', operation: 'Update', subresource: 'scale', apiVersion: 'apps/v1', since: { seq: '20', at: '2024-01-01T00:00:02Z' } },
    ]);
    expect(hpa.fieldCount).toBe(1);
  });

  it('filters by cluster, kind and namespace, and skips deleted objects', () => {
    expect(managerFields([d, b], 'kubectl', { kind: 'ConfigMap' })).toEqual([]);
    expect(managerFields([d, b], 'kubectl', { kind: 'Deployment', namespace: 'default', cluster: 'test' })).toHaveLength(1);
    expect(managerFields([d, b], 'nobody')).toEqual([]);
    expect(managerIndex([{ ...d, deleted: true }])).toEqual([]);
  });
});

describe('ManagerTotals', () => {
  it('sums the states one by one into what managerIndex lists, objects left out (every recorded case, at every event)', () => {
    // And each object deleted at the end: it counts for nobody.
    const states = caseNames().flatMap((name) => caseStates(name, { deleted: true }));
    const totals = new ManagerTotals();
    for (const s of states) totals.add(s);
    const expected = managerIndex(states).map(({ objects: _o, ...m }) => m);
    expect(expected.length).toBeGreaterThan(3);
    expect(states.some((s) => s.deleted)).toBe(true);
    expect(totals.summaries()).toEqual(expected);
  });

  it('merges the sums of other objects: split anywhere, the same totals', () => {
    const states = caseNames().flatMap((name) => caseStates(name, { deleted: true }));
    const whole = new ManagerTotals();
    for (const s of states) whole.add(s);
    for (const cut of [0, 1, Math.floor(states.length / 3), Math.floor(states.length / 2), states.length - 1, states.length]) {
      const [some, others] = [new ManagerTotals(), new ManagerTotals()];
      states.forEach((s, i) => (i < cut ? some : others).add(s));
      for (const m of others.summaries()) some.merge(m);
      expect([cut, some.summaries()]).toEqual([cut, whole.summaries()]);
    }
  });
});
