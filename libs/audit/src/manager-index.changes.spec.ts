import { ManagerIndexTimeline, managerIndexChange, managerIndexRows, type ManagerIndexRow, type ManagerIndexVersion } from './manager-index.changes.js';
import { evolveObjectOwnership, foldObjectOwnership, type ObjectOwnershipState } from './object-ownership.projection.js';
import { managerIndex, sortedIdentities } from './manager-index.read-model.js';
import { compareStrings } from '../../ssa-engine/src/index.js';
import { caseEvents, caseNames, caseStates } from './testing/conformance-events.js';

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

describe('ManagerIndexTimeline', () => {
  /** The versions, stepped as batches cut after `cuts` (each batch a timeline of its own, as the projection runs them). */
  function versionsOf(states: readonly ObjectOwnershipState[], cuts: ReadonlySet<number> = new Set()): ManagerIndexVersion[] {
    const out: ManagerIndexVersion[] = [];
    let timeline = new ManagerIndexTimeline();
    states.forEach((s, i) => {
      timeline.step(states[i - 1], s);
      if (!cuts.has(i)) return;
      out.push(...timeline.versions);
      timeline = new ManagerIndexTimeline();
    });
    return [...out, ...timeline.versions];
  }

  it.each(caseNames())('%s: the rows in force after every event are the rows of the state then', (name) => {
    const states = caseStates(name, { deleted: true });
    const versions = versionsOf(states);
    const rows = new Map<string, ManagerIndexRow>();
    let next = 0;
    for (const s of states) {
      for (; next < versions.length && versions[next]!.seq === s.lastSeq; next++) {
        for (const m of versions[next]!.removed) rows.delete(m);
        for (const r of versions[next]!.upserts) rows.set(r.manager, r);
      }
      expect(rows).toEqual(new Map(managerIndexRows(s).map((r) => [r.manager, r])));
    }
    expect(next).toBe(versions.length);
  });

  it.each(caseNames())('%s: cut into batches anywhere, the versions are the same', (name) => {
    const states = caseStates(name, { deleted: true });
    const whole = versionsOf(states);
    for (let cut = 0; cut < states.length - 1; cut++) expect(versionsOf(states, new Set([cut]))).toEqual(whole);
  });

  it.each(caseNames())('%s: changes() is managerIndexChange from the state before the batch to the last, for a batch starting anywhere', (name) => {
    const states = caseStates(name, { deleted: true });
    for (let from = 0; from < states.length; from++) {
      const timeline = new ManagerIndexTimeline();
      for (let i = from; i < states.length; i++) timeline.step(states[i - 1], states[i]!);
      const change = managerIndexChange(states[from - 1], states.at(-1)!);
      expect(timeline.changes()).toEqual(change ? [change] : []);
    }
  });
});
