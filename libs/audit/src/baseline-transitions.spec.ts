// The baseline an object's first version stands for is exactly what folding its first event reports:
// checked on every recorded case, starting the object's history at each of its events in turn
// (any event can be the first one ssa-audit sees), from each source.
import { baselineTransitions, transitionsToStore } from './baseline-transitions.js';
import { evolveObjectOwnership } from './object-ownership.projection.js';
import { ownershipVersionOf } from './ownership-version.js';
import type { EventSource } from './observed-event.types.js';
import { caseEvents, caseNames } from './testing/conformance-events.js';

const SOURCES: readonly EventSource[] = ['watch', 'relist', 'gap-fill'];

describe('baseline transitions (an object first observed)', () => {
  it.each(caseNames())('%s: rebuilt from the first version, byte for byte, whichever event comes first', (name) => {
    const { events, resolver } = caseEvents(name);
    let compared = 0;
    events.forEach((e, i) => {
      const source = SOURCES[i % SOURCES.length]!;
      const first = { ...e, source };
      const r = evolveObjectOwnership(undefined, first, resolver);
      if (!r.applied) return;
      const version = ownershipVersionOf(undefined, r.state)!;
      const rebuilt = baselineTransitions(first.objectId, version, { seq: r.state.firstSeq, at: first.observedAt, source });
      expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(r.transitions));
      expect(transitionsToStore(undefined, r)).toEqual([]);
      // What the projection folds: the same state and notes, without building the transitions it never stores.
      const folded = evolveObjectOwnership(undefined, first, resolver, { baselineTransitions: false });
      expect(JSON.stringify({ ...folded, transitions: undefined })).toBe(JSON.stringify({ ...r, transitions: undefined }));
      expect(folded.transitions).toEqual([]);
      for (const f of version.fields.slice(0, 3)) {
        const one = baselineTransitions(first.objectId, version, { seq: r.state.firstSeq, at: first.observedAt, source }, f.fieldsV1Path);
        expect(JSON.stringify(one)).toBe(JSON.stringify(r.transitions.filter((t) => t.fieldsV1Path === f.fieldsV1Path)));
      }
      // Every later event's transitions are stored as they are.
      const next = events[i + 1];
      if (next) {
        const later = evolveObjectOwnership(r.state, next, resolver);
        expect(transitionsToStore(r.state, later)).toBe(later.transitions);
        // The option concerns a first event only.
        expect(JSON.stringify(evolveObjectOwnership(r.state, next, resolver, { baselineTransitions: false }))).toBe(JSON.stringify(later));
      }
      compared++;
    });
    if (events.length > 0) expect(compared).toBeGreaterThan(0);
  });

  it('a first event that is a deletion or unreadable has no baseline', () => {
    const { events, resolver } = caseEvents(caseNames()[0]!);
    const deleted = evolveObjectOwnership(undefined, { ...events[0]!, watchType: 'DELETED' }, resolver);
    expect(baselineTransitions('1', ownershipVersionOf(undefined, deleted.state)!, { seq: '1', at: events[0]!.observedAt, source: 'watch' })).toEqual([]);
    const unreadable = evolveObjectOwnership(undefined, { ...events[0]!, object: { metadata: { managedFields: 'not a list' } } }, resolver);
    expect(unreadable.applied).toBe(false);
    expect(baselineTransitions('1', ownershipVersionOf(undefined, unreadable.state)!, { seq: '1', at: events[0]!.observedAt, source: 'watch' })).toEqual([]);
  });

  it('stores every transition of a later event, one on a field whose name holds U+0000 too', () => {
    const [name] = caseNames().filter((n) => {
      const { events, resolver } = caseEvents(n);
      return events.length > 1 && evolveObjectOwnership(evolveObjectOwnership(undefined, events[0]!, resolver).state, events[1]!, resolver).transitions.length > 0;
    });
    const { events, resolver } = caseEvents(name!);
    const first = evolveObjectOwnership(undefined, events[0]!, resolver);
    const later = evolveObjectOwnership(first.state, events[1]!, resolver);
    const t = later.transitions[0]!;
    const withNul = { ...later, transitions: [{ ...t, path: `${t.path}.a\u0000b`, fieldsV1Path: `${t.fieldsV1Path}.f:a\u0000b` }, ...later.transitions] };
    expect(transitionsToStore(first.state, withNul)).toBe(withNul.transitions);
  });
});
