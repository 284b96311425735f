import { AuditError } from './audit.error.js';
import { fieldOwners, ownershipTree, type OwnershipNode } from './field-owners.read-model.js';
import { foldObjectOwnership } from './object-ownership.projection.js';
import { eventsUpTo } from './seq.util.js';
import { caseEvents, testEvent } from './testing/conformance-events.js';

const HPA = { manager: 'horizontal-pod-autoscaler', operation: 'Update', apiVersion: 'apps/v1', subresource: 'scale' };

describe('fieldOwners', () => {
  const { events } = caseEvents('incident-d-hpa-scale-subresource');
  const state = foldObjectOwnership(events).state!;

  it('incident-d: .spec.replicas is owned by the HPA (Update, subresource scale) since the scale write', () => {
    const v = fieldOwners(state, '.spec.replicas');
    expect(v).toMatchObject({ path: '.spec.replicas', fieldsV1Path: 'f:spec.f:replicas', present: true, value: 7, deleted: false });
    expect(v.owners).toEqual([{ ...HPA, since: { seq: '20', at: '2024-01-01T00:00:02Z' }, sinceFirstObservation: false }]);
    expect(v.effectiveOwners).toEqual([{ ...HPA, since: { seq: '20', at: '2024-01-01T00:00:02Z' }, sinceFirstObservation: false, via: 'self' }]);
  });

  it('answers as of an earlier moment from the state folded up to it (at = time or sequence)', () => {
    const before = foldObjectOwnership(eventsUpTo(events, '2024-01-01T00:00:01Z')).state!;
    expect(fieldOwners(before, 'f:spec.f:replicas').owners.map((o) => o.manager)).toEqual(['kubectl']);
    expect(foldObjectOwnership(eventsUpTo(events, 10)).state).toEqual(before);
  });

  it('struct fields are kept alive by owners of descendants; absent paths have no owners', () => {
    const spec = fieldOwners(state, '.spec');
    expect(spec.owners).toEqual([]);
    expect(spec.effectiveOwners.map((o) => `${o.manager} ${o.via}`)).toEqual(['kubectl descendant', 'horizontal-pod-autoscaler descendant']);
    expect(spec.effectiveOwners[0]!.since.seq).toBe('10');
    expect(fieldOwners(state, '.spec.paused')).toMatchObject({ present: false, value: null, owners: [], effectiveOwners: [] });
  });

  it('container image by list key, in both path forms', () => {
    const a = fieldOwners(state, '.spec.template.spec.containers[name="app"].image');
    const b = fieldOwners(state, 'f:spec.f:template.f:spec.f:containers.k:{"name":"app"}.f:image');
    expect(b).toEqual(a);
    expect(a.owners.map((o) => o.manager)).toEqual(['kubectl']);
    expect(typeof a.value).toBe('string');
  });

  it('a bad path is an AuditError invalid-path naming the parameter', () => {
    expect(() => fieldOwners(state, 'spec.replicas')).toThrow(AuditError);
    try {
      fieldOwners(state, '.spec[');
    } catch (e) {
      expect(e).toMatchObject({ code: 'invalid-path', parameter: 'path' });
    }
  });
});

describe('ownershipTree', () => {
  it('nests owned paths under their parents, each node with owners and since', () => {
    const { events } = caseEvents('incident-d-hpa-scale-subresource');
    const tree = ownershipTree(foldObjectOwnership(events).state!);
    expect(tree.path).toBe('');
    const spec = tree.children.find((n) => n.segment === 'spec')!;
    expect(spec).toMatchObject({ path: '.spec', fieldsV1Path: 'f:spec', owned: false, owners: [] });
    const replicas = spec.children.find((n) => n.segment === 'replicas')!;
    expect(replicas).toMatchObject({ owned: true, children: [] });
    expect(replicas.owners.map((o) => [o.manager, o.since.seq])).toEqual([['horizontal-pod-autoscaler', '20']]);
    const flat: string[] = [];
    const walk = (n: OwnershipNode): void => {
      if (n.owned) flat.push(n.path);
      n.children.forEach(walk);
    };
    walk(tree);
    expect(flat).toContain('.spec.template.spec.containers[name="app"]');
    expect(flat).toContain('.spec.template.spec.containers[name="app"].image');
    const item = spec.children.find((n) => n.segment === 'template')!.children.find((n) => n.segment === 'spec')!.children[0]!.children[0]!;
    expect(item.segment).toBe('[name="app"]');
  });
});

describe('fieldOwners: dotted map keys and deleted objects', () => {
  it('reads .metadata.labels.app.kubernetes.io/name as one label key; a deleted object has no owners', async () => {
    const { simulateApply } = await import('./simulate-apply.use-case.js');
    const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'd', labels: { 'app.kubernetes.io/name': 'shop' } } };
    const object = simulateApply({ config, manager: 'flux', now: '2026-01-01T00:00:00Z' }).result!.object;
    const event = testEvent({ seq: 5n, name: 'a', object });
    const state = foldObjectOwnership([event]).state!;
    const v = fieldOwners(state, '.metadata.labels.app.kubernetes.io/name');
    expect(v).toMatchObject({ fieldsV1Path: 'f:metadata.f:labels.f:app.kubernetes.io/name', present: true, value: 'shop' });
    expect(v.owners).toMatchObject([{ manager: 'flux', operation: 'Apply', since: { seq: '5' } }]);
    const gone = foldObjectOwnership([{ ...event, seq: 6n, watchType: 'DELETED' }], undefined, state).state!;
    expect(fieldOwners(gone, '.metadata.labels.app.kubernetes.io/name')).toMatchObject({ present: false, deleted: true, owners: [] });
    expect(ownershipTree(gone).children).toEqual([]);
  });
});
