// The log walk over in-memory ports: which events it folds, which it passes over, and how it
// handles a log whose (xid, seq) order differs from an object's seq order. The Postgres adapters
// are exercised by libs/store's int specs.
import { stampOf } from './append-time-projection.js';
import type { ObjectOwnershipState } from './object-ownership.projection.js';
import type { ObservedEvent } from './observed-event.types.js';
import { OwnershipProjector } from './ownership-projector.use-case.js';
import { ProjectEventsUseCase, type OwnershipProjectionStore, type ProjectedBatch } from './project-events.use-case.js';
import { ProjectionConflictError } from './projection-conflict.error.js';
import type { EventPosition, LoggedEvent, ObjectRewrite, ProjectionLog, ProjectionTables, RewritePages, SeqRange } from './projection-log.port.js';
import type { SchemaResolver } from './schema-resolver.port.js';
import type { ProjectedSchemaGroup } from './schema-staleness.js';
import { compareSeq } from './seq.util.js';
import { caseEvents, caseNames } from './testing/conformance-events.js';

interface LogEntry extends LoggedEvent {
  readonly event: ObservedEvent;
}

const START: EventPosition = { xid: '0', seq: '0' };
const byPosition = (a: EventPosition, b: EventPosition): number => {
  const x = BigInt(a.xid) - BigInt(b.xid);
  return x !== 0n ? (x < 0n ? -1 : 1) : compareSeq(a.seq, b.seq);
};

class MemoryLog implements ProjectionLog<LogEntry> {
  readonly loaded: string[] = [];
  constructor(readonly entries: readonly LogEntry[]) {}

  private after(p: EventPosition): LogEntry[] {
    return [...this.entries].sort(byPosition).filter((e) => byPosition(e, p) > 0);
  }
  async readAfter(p: EventPosition, limit: number): Promise<LogEntry[]> {
    return this.after(p).slice(0, limit);
  }
  async load(events: readonly LogEntry[]): Promise<ObservedEvent[]> {
    this.loaded.push(...events.map((e) => e.seq));
    return events.map((e) => e.event);
  }
  async countAfter(p: EventPosition): Promise<number> {
    return this.after(p).length;
  }
  async estimatedSize(): Promise<number> {
    return this.entries.length;
  }
  async objectsOfCluster(): Promise<string[]> {
    return [...new Set(this.entries.map((e) => e.objectId))].sort();
  }
  async historyLengths(ids: readonly string[]): Promise<Map<string, number>> {
    const lengths = new Map<string, number>();
    for (const e of this.entries) if (ids.includes(e.objectId)) lengths.set(e.objectId, (lengths.get(e.objectId) ?? 0) + 1);
    return lengths;
  }
  async objectsOutOfOrder(after: EventPosition, ranges: ReadonlyMap<string, SeqRange>): Promise<string[]> {
    return [...ranges]
      .filter(([id, r]) => this.after(after).some((e) => e.objectId === id && compareSeq(e.seq, r.above) > 0 && compareSeq(e.seq, r.below) < 0))
      .map(([id]) => id);
  }
}

class MemoryTables implements ProjectionTables {
  readonly states = new Map<string, ObjectOwnershipState>();
  position: EventPosition = START;
  /** Saves of walk pages to refuse, as if an append had stored a state meanwhile. */
  conflicts = 0;
  constructor(private readonly log: MemoryLog) {}

  private write(batch: ProjectedBatch, compareAndSet: boolean): void {
    if (compareAndSet) {
      for (const s of batch.states) {
        if ((this.states.get(s.objectId)?.lastSeq ?? null) !== (batch.foldedFrom.get(s.objectId) ?? null)) throw new ProjectionConflictError(1);
      }
    }
    for (const s of batch.states) this.states.set(s.objectId, s);
  }
  async activeGeneration(): Promise<number> {
    return 1;
  }
  async beginRebuild(): Promise<number> {
    throw new Error('not used');
  }
  async swapIn(): Promise<void> {
    throw new Error('not used');
  }
  async checkpoint(): Promise<EventPosition> {
    return this.position;
  }
  pageStore(_generation: number, position: EventPosition): OwnershipProjectionStore {
    return {
      load: async (ids) => new Map(ids.flatMap((id) => (this.states.has(id) ? [[id, this.states.get(id)!] as const] : []))),
      save: async (batch) => {
        if (this.conflicts > 0) {
          this.conflicts--;
          throw new ProjectionConflictError(1);
        }
        this.write(batch, true);
        this.position = position;
      },
    };
  }
  /** The sizes of the pages each rewrite folded, in order (one list per rewrite). */
  readonly rewrites: number[][] = [];
  /** The objects of each rewrite, in order. */
  readonly rewrittenObjects: string[][] = [];
  async rewriteObjects(_generation: number, objectIds: readonly string[], pages: RewritePages, fold: (rewrite: ObjectRewrite) => Promise<void>): Promise<number> {
    this.rewrittenObjects.push([...objectIds]);
    // As the Postgres tables do: every row of the objects deleted first, their events object by object (here in the
    // order given), each object's in seq order.
    const place = (id: string) => objectIds.indexOf(id);
    const events = this.log.entries.filter((e) => objectIds.includes(e.objectId)).sort((a, b) => place(a.objectId) - place(b.objectId) || compareSeq(a.seq, b.seq));
    for (const id of objectIds) this.states.delete(id);
    const sizes: number[] = [];
    for (let from = 0; from < events.length; from += pages.events) {
      const page = events.slice(from, from + pages.events);
      sizes.push(page.length);
      // Each page from the states the pages before saved.
      const load = async (ids: readonly string[]) => new Map(ids.flatMap((id) => (this.states.has(id) ? [[id, this.states.get(id)!] as const] : [])));
      await fold({ events: page.map((e) => e.event), store: { load, save: async (batch) => this.write(batch, false) } });
    }
    this.rewrites.push(sizes);
    return events.length;
  }
  async stamps(_generation: number, ids: readonly string[]) {
    return new Map(ids.flatMap((id) => (this.states.has(id) ? [[id, stampOf(this.states.get(id)!)] as const] : [])));
  }
  async schemaGroups(): Promise<ProjectedSchemaGroup[]> {
    return [];
  }
  async objectsOf(): Promise<string[]> {
    return [];
  }
  async stateCount(): Promise<number> {
    return this.states.size;
  }
}

/** The state folding `events` in seq order gives (what any walk must end with). */
async function foldedInOrder(events: readonly ObservedEvent[], resolve: SchemaResolver): Promise<ObjectOwnershipState> {
  let saved: ObjectOwnershipState | undefined;
  const store: OwnershipProjectionStore = { load: async () => new Map(), save: async (b) => void (saved = b.states[0]) };
  await new ProjectEventsUseCase(store, resolve).execute({ events });
  return saved!;
}

/** A recorded case with at least `n` events, as a log whose xids follow the seqs unless `xids` says otherwise. */
function caseLog(n: number, xids?: (i: number) => number) {
  const name = caseNames().find((c) => caseEvents(c).events.length >= n)!;
  const { events, resolver } = caseEvents(name);
  const entries = events.map((event, i) => ({ seq: String(event.seq), xid: String(100 + (xids ? xids(i) : i)), objectId: event.objectId, observedAt: new Date(event.observedAt), event }));
  return { events, resolver, log: new MemoryLog(entries) };
}

const walker = (log: MemoryLog, tables: MemoryTables, resolve: SchemaResolver, pageSize: number) => {
  const catalog = { resolve };
  return new OwnershipProjector(log, tables, { current: async () => catalog }, pageSize);
};

describe('OwnershipProjector (the log walk, in-memory ports)', () => {
  it('folds a log whose (xid, seq) order puts a higher seq before a lower one as a fold in seq order does', async () => {
    // Events 1 and 2 exchange their xids: the log gives 0, 2, 1, 3, …
    const { events, resolver, log } = caseLog(4, (i) => (i === 1 ? 2 : i === 2 ? 1 : i));
    const tables = new MemoryTables(log);
    const r = await walker(log, tables, resolver, 1).catchUp();
    expect(r.reordered).toBe(1);
    expect(JSON.stringify(tables.states.get(events[0]!.objectId))).toBe(JSON.stringify(await foldedInOrder(events, resolver)));
    expect(r.events).toBe(events.length);
    expect(await walker(log, tables, resolver, 1).lag()).toBe(0);
  });

  it('passes over the events a stored state holds without loading them', async () => {
    const { events, resolver, log } = caseLog(3);
    const tables = new MemoryTables(log);
    // The first two already folded (at append, say): the walk starts before them.
    tables.states.set(events[0]!.objectId, await foldedInOrder(events.slice(0, 2), resolver));
    const r = await walker(log, tables, resolver, 2).catchUp();
    expect(r.reordered).toBe(0);
    expect(log.loaded).toEqual(events.slice(2).map((e) => String(e.seq)));
    expect(JSON.stringify(tables.states.get(events[0]!.objectId))).toBe(JSON.stringify(await foldedInOrder(events, resolver)));
  });

  it('replays one object a page at a time (the walk\'s page size), to the state one fold of all its events gives', async () => {
    let replayed = 0;
    for (const name of caseNames()) {
      const { events, resolver } = caseEvents(name);
      if (events.length < 3 || new Set(events.map((e) => e.objectId)).size !== 1) continue;
      replayed++;
      const log = new MemoryLog(events.map((event, i) => ({ seq: String(event.seq), xid: String(100 + i), objectId: event.objectId, observedAt: new Date(event.observedAt), event })));
      const tables = new MemoryTables(log);
      const r = await walker(log, tables, resolver, 2).replay({ kind: 'object', objectId: events[0]!.objectId });
      expect(r).toMatchObject({ events: events.length, objects: 1 });
      expect(tables.rewrites).toEqual([Array.from({ length: Math.ceil(events.length / 2) }, (_, i) => Math.min(2, events.length - 2 * i))]);
      expect(JSON.stringify(tables.states.get(events[0]!.objectId))).toBe(JSON.stringify(await foldedInOrder(events, resolver)));
    }
    expect(replayed).toBeGreaterThan(20);
  });

  it('replays a cluster 100 objects a transaction, an object of a history longer than 1,000 events alone: every object once, as one fold of its events', async () => {
    const { events, resolver } = caseEvents(caseNames().find((c) => new Set(caseEvents(c).events.map((e) => e.objectId)).size === 1)!);
    const first = events[0]!;
    let seq = 1;
    const entry = (objectId: string) => {
      const event = { ...structuredClone(first), objectId, seq: String(seq++) };
      return { seq: event.seq, xid: String(1000 + seq), objectId, observedAt: new Date(event.observedAt), event };
    };
    // 150 objects of one event, then one of 1,100 (ids in string order, as the fake lists a cluster's objects).
    const short = Array.from({ length: 150 }, (_, i) => String(1000 + i));
    const log = new MemoryLog([...short.map(entry), ...Array.from({ length: 1_100 }, () => entry('5000'))]);
    const tables = new MemoryTables(log);
    const r = await walker(log, tables, resolver, 500).replay({ kind: 'cluster', cluster: first.cluster });
    expect(r).toMatchObject({ events: 1_250, objects: 151 });
    expect(tables.rewrittenObjects).toEqual([short.slice(0, 100), short.slice(100), ['5000']]);
    expect(tables.rewrites).toEqual([[100], [50], [500, 500, 100]]);
    for (const id of [...short, '5000']) {
      const own = log.entries.filter((e) => e.objectId === id).map((e) => e.event);
      expect(JSON.stringify(tables.states.get(id))).toBe(JSON.stringify(await foldedInOrder(own, resolver)));
    }
  });

  it('starts again from its checkpoint when a page loses a state to another writer', async () => {
    const { events, resolver, log } = caseLog(3);
    const tables = new MemoryTables(log);
    tables.conflicts = 2;
    const r = await walker(log, tables, resolver, 1).catchUp();
    expect(tables.conflicts).toBe(0);
    expect(JSON.stringify(tables.states.get(events[0]!.objectId))).toBe(JSON.stringify(await foldedInOrder(events, resolver)));
    expect(r.position).toEqual({ xid: String(100 + events.length - 1), seq: String(events[events.length - 1]!.seq) });
  });
});
