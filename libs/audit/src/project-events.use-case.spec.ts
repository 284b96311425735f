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
});
