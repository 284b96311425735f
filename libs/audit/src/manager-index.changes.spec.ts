import { managerIndexChange, managerIndexRows } from './manager-index.changes.js';
import { evolveObjectOwnership, foldObjectOwnership } from './object-ownership.projection.js';
import { caseEvents, caseNames } from './testing/conformance-events.js';

describe('managerIndexChange', () => {
  it.each(caseNames())('%s: the rows after every event are the previous rows with the changes applied', (name) => {
    const { events, resolver } = caseEvents(name);
    let state = undefined as ReturnType<typeof evolveObjectOwnership>['state'] | undefined;
    let rows = new Map<string, number>();
    for (const e of events) {
      const next = evolveObjectOwnership(state, e, resolver).state;
      const change = managerIndexChange(state, next);
      if (change) {
        for (const m of change.removed) {
          expect(rows.has(m)).toBe(true);
          rows.delete(m);
        }
        for (const r of change.upserts) {
          expect(rows.get(r.manager)).not.toBe(r.fieldCount);
          rows.set(r.manager, r.fieldCount);
        }
      }
      expect(rows).toEqual(new Map(managerIndexRows(next).map((r) => [r.manager, r.fieldCount])));
      state = next;
    }
  });

  it('writes nothing for a write that moves no owner, and removes every row of a deleted object', () => {
    const { events, resolver } = caseEvents('incident-a-pod-set-image');
    const first = foldObjectOwnership(events.slice(0, 1), resolver).state!;
    const created = managerIndexChange(undefined, first)!;
    expect(created).toMatchObject({ removed: [], objectId: first.objectId });
    expect(created.upserts).toEqual(managerIndexRows(first));
    expect(created.upserts.length).toBeGreaterThan(0);
    const again = evolveObjectOwnership(first, { ...events[0]!, seq: '999999', resourceVersion: 'again' }, resolver).state;
    expect(managerIndexChange(first, again)).toBeNull();
    const deleted = evolveObjectOwnership(first, { ...events[0]!, seq: '999999', watchType: 'DELETED' }, resolver).state;
    expect(managerIndexChange(first, deleted)).toMatchObject({ upserts: [], removed: managerIndexRows(first).map((r) => r.manager) });
  });
});
