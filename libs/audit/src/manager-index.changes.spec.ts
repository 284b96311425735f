import { managerIndexChange, managerIndexRows, type ManagerIndexRow } from './manager-index.changes.js';
import { evolveObjectOwnership, foldObjectOwnership } from './object-ownership.projection.js';
import { managerIndex, sortedIdentities } from './manager-index.read-model.js';
import { compareStrings } from '../../ssa-engine/src/index.js';
import { caseEvents, caseNames } from './testing/conformance-events.js';

describe('managerIndexChange', () => {
  it.each(caseNames())('%s: the rows after every event are the previous rows with the changes applied', (name) => {
    const { events, resolver } = caseEvents(name);
    let state = undefined as ReturnType<typeof evolveObjectOwnership>['state'] | undefined;
    // Whole rows: paths, identities and paths per identity.
    let rows = new Map<string, ManagerIndexRow>();
    for (const e of events) {
      const next = evolveObjectOwnership(state, e, resolver).state;
      const change = managerIndexChange(state, next);
      if (change) {
        for (const m of change.removed) {
          expect(rows.has(m)).toBe(true);
          rows.delete(m);
        }
        for (const r of change.upserts) {
          expect(rows.get(r.manager)).not.toEqual(r);
          rows.set(r.manager, r);
        }
      }
      expect(rows).toEqual(new Map(managerIndexRows(next).map((r) => [r.manager, r])));
      state = next;
    }
  });

  it.each(caseNames())('%s: the rows give what GET /v1/managers lists (identities, field counts), at every event', (name) => {
    const { events, resolver } = caseEvents(name);
    let state = undefined as ReturnType<typeof evolveObjectOwnership>['state'] | undefined;
    for (const e of events) {
      state = evolveObjectOwnership(state, e, resolver).state;
      const summed = managerIndexRows(state)
        .filter(() => !state!.deleted)
        .sort((a, b) => compareStrings(a.manager, b.manager))
        .map((r) => ({ manager: r.manager, identities: sortedIdentities(r.identities), objectCount: 1, fieldCount: r.identityFieldCount }));
      expect(summed).toEqual(managerIndex([state]).map(({ objects: _o, ...m }) => m));
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
