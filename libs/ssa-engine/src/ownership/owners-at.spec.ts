import { ownersAt } from './owners-at.js';
import { cm, deploy, T1 } from './test-fixtures.js';

describe('ownersAt', () => {
  const spec = { replicas: 2, template: { spec: { containers: [{ name: 'app', image: 'i' }] } } };
  const C = (item: object): object => ({ 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"app"}': item } } } });
  const s = deploy(spec, [
    ['a', 'Apply', T1, { 'f:spec': { 'f:replicas': {}, ...C({ '.': {}, 'f:name': {} }) } }],
    ['hpa', 'Update', undefined, { 'f:spec': { 'f:replicas': {} } }, 'apps/v1', 'scale'],
    ['u', 'Update', T1, { 'f:spec': C({ 'f:image': {} }) }],
  ]);

  it('direct owners with operation, subresource, apiVersion, time (entry time) and index', () => {
    const o = ownersAt(s, '.spec.replicas');
    expect(o).toMatchObject({ path: '.spec.replicas', fieldsV1: 'f:spec.f:replicas', present: true, kind: 'struct-field' });
    expect(o.owners).toEqual([
      { manager: 'a', operation: 'Apply', apiVersion: 'apps/v1', subresource: '', time: T1, index: 0, via: 'self' },
      { manager: 'hpa', operation: 'Update', apiVersion: 'apps/v1', subresource: 'scale', time: null, index: 1, via: 'self' },
    ]);
  });

  it('struct fields: effective owners include owners of descendants', () => {
    const o = ownersAt(s, '.spec.template');
    expect(o.owners).toEqual([]);
    expect(o.effectiveOwners.map((x) => [x.manager, x.via])).toEqual([
      ['a', 'descendant'],
      ['u', 'descendant'],
    ]);
  });

  it('list items: only owners of the item itself', () => {
    const o = ownersAt(s, 'f:spec.f:template.f:spec.f:containers.k:{"name":"app"}');
    expect(o.kind).toBe('list-item');
    expect(o.effectiveOwners.map((x) => x.manager)).toEqual(['a']);
  });

  it('map keys with dots in the name', () => {
    const c = cm({}, [['x', 'Apply', T1, { 'f:metadata': { 'f:labels': { 'f:app.kubernetes.io/name': {} } } }]], { 'app.kubernetes.io/name': 'web' });
    const o = ownersAt(c, '.metadata.labels.app.kubernetes.io/name');
    expect(o).toMatchObject({ present: true, kind: 'map-element', fieldsV1: 'f:metadata.f:labels.f:app.kubernetes.io/name' });
    expect(o.owners.map((x) => x.manager)).toEqual(['x']);
  });
});
