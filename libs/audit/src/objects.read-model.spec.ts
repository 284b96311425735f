import { foldObjectOwnership } from './object-ownership.projection.js';
import { listObjects } from './objects.read-model.js';
import { caseEvents } from './testing/conformance-events.js';

describe('listObjects', () => {
  const d = foldObjectOwnership(caseEvents('incident-d-hpa-scale-subresource').events).state!;
  const b = foldObjectOwnership(caseEvents('incident-b-configmap-ghost-label').events).state!;

  it('lists objects in issue 7 shape, sorted, filtered by identity columns and manager', () => {
    expect(listObjects([d, b]).map((o) => o.kind)).toEqual(['ConfigMap', 'Deployment']);
    expect(listObjects([d, b], { group: 'apps' })).toEqual([
      {
        id: d.objectId,
        cluster: 'test',
        uid: d.uid,
        group: 'apps',
        version: 'v1',
        kind: 'Deployment',
        namespace: 'default',
        name: 'web',
        deleted: false,
        lastSeq: d.lastSeq,
        lastAt: d.lastAt,
      },
    ]);
    expect(listObjects([d, b], { manager: 'flux-controller' }).map((o) => o.name)).toEqual(['app-config']);
    expect(listObjects([d, b], { manager: 'nobody' })).toEqual([]);
    expect(listObjects([d, b], { namespace: 'other' })).toEqual([]);
  });
});
