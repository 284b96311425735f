// Folds every recorded conformance case's consecutive expected objects as events and checks the
// projection's invariants: owners equal the last object's managedFields; replay is deterministic.
import { decodeManagedFields, pathToHuman } from '../../ssa-engine/src/index.js';
import { foldObjectOwnership } from './object-ownership.projection.js';
import { caseEvents, caseNames } from './testing/conformance-events.js';

function ownersFromManagedFields(object: unknown): string[] {
  const meta = (object as { metadata?: { managedFields?: unknown } }).metadata;
  const out: string[] = [];
  for (const e of decodeManagedFields(meta?.managedFields).values()) {
    for (const p of e.set.paths()) out.push(`${pathToHuman(p)} ${e.manager}/${e.operation}/${e.subresource}/${e.operation === 'Update' ? e.apiVersion : ''}`);
  }
  return out.sort();
}

describe('every conformance case folded as events', () => {
  it.each(caseNames())('%s', (name) => {
    const { events, resolver } = caseEvents(name);
    if (events.length === 0) return;
    const a = foldObjectOwnership(events, resolver);
    const b = foldObjectOwnership(events, resolver);
    expect(b).toEqual(a);
    const state = a.state!;
    expect(state.lastError).toBeNull();
    expect(state.eventCount).toBe(events.length);
    expect(state.object).toBe(events[events.length - 1]!.object);
    const projected = state.fields.flatMap((f) => f.owners.map((o) => `${f.path} ${o.manager}/${o.operation}/${o.subresource}/${o.operation === 'Update' ? o.apiVersion : ''}`)).sort();
    expect(projected).toEqual(ownersFromManagedFields(events[events.length - 1]!.object));
    // since never lies in the future nor before the first event
    for (const f of state.fields) for (const o of f.owners) expect(BigInt(o.since.seq) >= BigInt(state.firstSeq) && BigInt(o.since.seq) <= BigInt(state.lastSeq)).toBe(true);
    // the result is plain JSON
    expect(JSON.parse(JSON.stringify(a.transitions))).toEqual(a.transitions);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    // folding in two halves (resuming from a stored state) gives the same state
    const half = Math.floor(events.length / 2);
    const first = foldObjectOwnership(events.slice(0, half), resolver);
    const resumed = foldObjectOwnership(events.slice(half), resolver, first.state);
    expect(resumed.state).toEqual(state);
    expect([...first.transitions, ...resumed.transitions]).toEqual(a.transitions);
    // redelivering every event is a no-op
    expect(foldObjectOwnership(events, resolver, state).state).toBe(state);
  });
});
