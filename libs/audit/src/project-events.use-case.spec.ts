import type { ObjectOwnershipState } from './object-ownership.projection.js';
import { foldObjectOwnership } from './object-ownership.projection.js';
import { baselineTransitions } from './baseline-transitions.js';
import { seqString } from './seq.util.js';
import { ProjectEventsUseCase, type OwnershipProjectionStore, type ProjectedBatch } from './project-events.use-case.js';
import { caseEvents } from './testing/conformance-events.js';

class MemoryStore implements OwnershipProjectionStore {
  readonly states = new Map<string, ObjectOwnershipState>();
  readonly batches: ProjectedBatch[] = [];
  async load(ids: readonly string[]) {
    return new Map(ids.filter((id) => this.states.has(id)).map((id) => [id, this.states.get(id)!]));
  }
  async save(batch: ProjectedBatch) {
    this.batches.push(batch);
    for (const s of batch.states) this.states.set(s.objectId, s);
  }
}

describe('ProjectEventsUseCase', () => {
  it('folds interleaved events of several objects in batches into the same states as a fold per object', async () => {
    const a = caseEvents('incident-a-pod-set-image', 0).events;
    const d = caseEvents('incident-d-hpa-scale-subresource', 1).events;
    const all = [...a, ...d];
    const store = new MemoryStore();
    const project = new ProjectEventsUseCase(store);
    const r1 = await project.execute({ events: all.filter((e) => Number(e.seq) <= 20) });
    expect(r1).toMatchObject({ objects: 2, applied: 3, ignored: 0, checkpoint: '20' });
    const r2 = await project.execute({ events: all });
    expect(r2).toMatchObject({ applied: all.length - 3, ignored: 3, checkpoint: String(Math.max(...all.map((e) => Number(e.seq)))) });
    expect(store.states.get(a[0]!.objectId)).toEqual(foldObjectOwnership(a).state);
    expect(store.states.get(d[0]!.objectId)).toEqual(foldObjectOwnership(d).state);
    // Stored: the changes after the first observation; the first version stands for its baseline.
    const transitions = store.batches.flatMap((b) => b.transitions).filter((t) => t.objectId === a[0]!.objectId);
    const firstVersion = store.batches.flatMap((b) => b.versions).find((v) => v.objectId === a[0]!.objectId)!;
    expect(firstVersion.seq).toBe(seqString(a[0]!.seq));
    expect(transitions.every((t) => t.seq !== a[0]!.seq)).toBe(true);
    const baseline = baselineTransitions(a[0]!.objectId, firstVersion, { seq: seqString(a[0]!.seq), at: a[0]!.observedAt, source: a[0]!.source });
    expect(baseline.length).toBeGreaterThan(0);
    expect([...baseline, ...transitions]).toEqual(foldObjectOwnership(a).transitions);

    // redelivery: nothing changes, nothing new is written
    const r3 = await project.execute({ events: all });
    expect(r3).toMatchObject({ applied: 0, transitions: 0 });
    expect(store.batches.at(-1)).toMatchObject({ states: [], transitions: [] });
  });

  it('reports the objects one of whose events was observed earlier than the one before it, in the batch or against the stored state', async () => {
    const a = caseEvents('incident-a-pod-set-image', 0).events;
    const d = caseEvents('incident-d-hpa-scale-subresource', 1).events;
    expect(a.length).toBeGreaterThan(2);
    const ms = (e: { observedAt: string }) => Date.parse(e.observedAt);
    // The recorded cases come in time order (equal times allowed).
    expect(a.every((e, i) => i === 0 || ms(e) >= ms(a[i - 1]!))).toBe(true);
    const store = new MemoryStore();
    const project = new ProjectEventsUseCase(store);
    await project.execute({ events: [...a.slice(0, 2), ...d] });
    expect(store.batches.at(-1)!.outOfTimeOrder).toEqual(new Set());
    // a[2] observed a millisecond before the stored state's last event: out of order against the stored state, not within the batch.
    const back = { ...a[2]!, observedAt: new Date(ms(a[1]!) - 1).toISOString() };
    await project.execute({ events: [back, ...a.slice(3)] });
    expect(store.batches.at(-1)!.outOfTimeOrder).toEqual(new Set([a[0]!.objectId]));
    // The same event at the same millisecond as the one before it keeps the order; a redelivery is no event.
    const store2 = new MemoryStore();
    await new ProjectEventsUseCase(store2).execute({ events: [...a.slice(0, 2), { ...a[2]!, observedAt: a[1]!.observedAt }, ...a.slice(3), a[0]!] });
    expect(store2.batches.at(-1)!.outOfTimeOrder).toEqual(new Set());
    // Within one batch.
    const store3 = new MemoryStore();
    await new ProjectEventsUseCase(store3).execute({ events: [...d, ...a.slice(0, 2), back] });
    expect(store3.batches.at(-1)!.outOfTimeOrder).toEqual(new Set([a[0]!.objectId]));
  });
});
