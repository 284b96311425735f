import { asKubeObject, toObservation } from './to-observation.js';

describe('objects entering libs/kube', () => {
  const md = { uid: 'u1', name: 'n', namespace: 'default', resourceVersion: '7' };

  it('accepts objects with uid, name and resourceVersion', () => {
    expect(asKubeObject({ metadata: md })).toEqual({ metadata: md });
  });

  it.each([
    ['no metadata', {}],
    ['no uid', { metadata: { ...md, uid: undefined } }],
    ['empty name', { metadata: { ...md, name: '' } }],
    ['numeric resourceVersion', { metadata: { ...md, resourceVersion: 7 } }],
    ['managedFields not a list', { metadata: { ...md, managedFields: {} } }],
    ['not an object', 'text'],
  ])('rejects %s', (_, value) => {
    expect(asKubeObject(value)).toBeUndefined();
  });

  it('fills apiVersion and kind that list items lack', () => {
    const o = toObservation('c', { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true }, 'ADDED', 'relist', { metadata: md }, new Date('2026-11-21T10:00:00Z'));
    expect(o).toEqual({
      cluster: 'c',
      resource: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' },
      type: 'ADDED',
      source: 'relist',
      observedAt: '2026-11-21T10:00:00.000Z',
      object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: md },
    });
    const core = toObservation('c', { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true }, 'ADDED', 'watch', { metadata: md });
    expect(core.object.apiVersion).toBe('v1');
  });
});
