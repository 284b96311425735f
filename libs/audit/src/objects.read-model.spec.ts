import { foldObjectOwnership } from './object-ownership.projection.js';
import { listObjects, managerOwnsAField } from './objects.read-model.js';
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

  it('managerOwnsAField: a manager owning one field of the object, as of any event; none of a deleted object', () => {
    const events = caseEvents('incident-d-hpa-scale-subresource').events;
    const first = foldObjectOwnership(events.slice(0, 1)).state!;
    expect(managerOwnsAField(first.fields, 'kubectl')).toBe(true);
    expect(managerOwnsAField(first.fields, 'horizontal-pod-autoscaler')).toBe(false);
    expect(managerOwnsAField(d.fields, 'horizontal-pod-autoscaler')).toBe(true);
    expect(managerOwnsAField(d.fields, 'nobody')).toBe(false);
    const gone = foldObjectOwnership([...events, { ...events[events.length - 1]!, seq: '999', watchType: 'DELETED' }]).state!;
    expect(gone.deleted).toBe(true);
    expect(managerOwnsAField(gone.fields, 'kubectl')).toBe(false);
  });
});
