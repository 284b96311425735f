import { comparePositions, EventTail, type EventLogReader, type TailObserver } from './event-tail.js';
import type { EventPosition } from './event-position.js';
import type { StoredEvent } from './event-reader.js';

/**
 * An in-memory log with Postgres's visibility rule: events of transactions still open are invisible,
 * and readers stop before the oldest open transaction (so a late commit of an old xid is never skipped).
 */
class FakeLog implements EventLogReader {
  private readonly events: StoredEvent[] = [];
  private readonly openXids = new Set<bigint>();
  private nextXid = 100n;
  private nextSeq = 1n;
  reads = 0;

  /** Begins a transaction; its events become visible when `commit()` is called. */
  begin(): { add(n: number): void; commit(): void } {
    const xid = this.nextXid++;
    this.openXids.add(xid);
    return {
      add: (n) => {
        for (let i = 0; i < n; i++) this.events.push({ xid: String(xid), seq: String(this.nextSeq++) } as StoredEvent);
      },
      commit: () => void this.openXids.delete(xid),
    };
  }

  append(n: number): void {
    const t = this.begin();
    t.add(n);
    t.commit();
  }

  private horizon(): bigint {
    return [...this.openXids].reduce((m, x) => (x < m ? x : m), this.nextXid);
  }

  /** The final order of everything committed. */
  committed(): string[] {
    return this.sorted().filter((e) => !this.openXids.has(BigInt(e.xid))).map(key);
  }

  private sorted(): StoredEvent[] {
    return [...this.events].sort(comparePositions);
  }

  async readAfter(p: EventPosition, limit: number): Promise<StoredEvent[]> {
    this.reads++;
    await new Promise((r) => setImmediate(r));
    const h = this.horizon();
    return this.sorted().filter((e) => comparePositions(e, p) > 0 && BigInt(e.xid) < h).slice(0, limit);
  }

  async tail(): Promise<EventPosition> {
    await new Promise((r) => setImmediate(r));
    const h = this.horizon();
    const visible = this.sorted().filter((e) => BigInt(e.xid) < h);
    return visible[visible.length - 1] ?? { xid: '0', seq: '0' };
  }
}

const key = (e: EventPosition) => `${e.xid}:${e.seq}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function collector(): TailObserver & { keys: string[]; completed: boolean; errors: unknown[] } {
  const c = {
    keys: [] as string[],
    completed: false,
    errors: [] as unknown[],
    next: (events: readonly StoredEvent[]) => void c.keys.push(...events.map(key)),
    error: (e: unknown) => void c.errors.push(e),
    complete: () => void (c.completed = true),
  };
  return c;
}

async function until(what: string, f: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

describe('EventTail', () => {
  it('orders positions by xid then seq, as 64-bit numbers', () => {
    expect(comparePositions({ xid: '9', seq: '100' }, { xid: '10', seq: '1' })).toBe(-1);
    expect(comparePositions({ xid: '10', seq: '2' }, { xid: '10', seq: '10' })).toBe(-1);
    expect(comparePositions({ xid: '18446744073709551615', seq: '1' }, { xid: '18446744073709551614', seq: '9' })).toBe(1);
    expect(comparePositions({ xid: '5', seq: '5' }, { xid: '5', seq: '5' })).toBe(0);
  });

  it('fans one poller out to every subscriber: the reads do not grow with their number', async () => {
    const log = new FakeLog();
    log.append(3);
    const tail = new EventTail(log, { pollMs: 20 });
    const subs = Array.from({ length: 200 }, () => collector());
    const handles = subs.map((c) => tail.subscribe(undefined, c));
    await until('the tail to start', () => tail.running && log.reads > 0);
    const before = log.reads;
    log.append(2);
    await until('everyone to receive', () => subs.every((c) => c.keys.length === 2));
    await sleep(100);
    // About one read per poll (100 ms / 20 ms), not one per subscriber.
    expect(log.reads - before).toBeLessThan(15);
    for (const c of subs) expect(c.keys).toEqual(log.committed().slice(3));
    for (const h of handles) h.close();
  });

  it('hands a subscriber over from its own catch-up to the shared tail without a gap or a duplicate', async () => {
    for (let round = 0; round < 20; round++) {
      const log = new FakeLog();
      log.append(7);
      const tail = new EventTail(log, { pollMs: 1 + (round % 5), pageSize: 3 });
      const live = collector();
      const h0 = tail.subscribe(undefined, live);
      const writer = (async () => {
        for (let i = 0; i < 30; i++) {
          log.append(1 + (i % 4));
          await sleep(i % 3);
        }
      })();
      // Joining at different moments: some behind the tail, some ahead of it (read further than its last poll).
      const late = Array.from({ length: 6 }, () => collector());
      const handles = [];
      for (const [i, c] of late.entries()) {
        await sleep(i * 2);
        handles.push(tail.subscribe(i % 2 === 0 ? { xid: '0', seq: '0' } : { xid: '100', seq: '3' }, c));
      }
      await writer;
      const all = log.committed();
      await until('every subscriber to reach the end', () => late.every((c) => c.keys.length >= all.length - 3) && live.keys.length > 0);
      await sleep(20);
      for (const [i, c] of late.entries()) expect(c.keys).toEqual(i % 2 === 0 ? all : all.slice(3));
      expect(all).toEqual(expect.arrayContaining(live.keys));
      expect(live.keys).toEqual(all.slice(all.indexOf(live.keys[0]!)));
      for (const h of [h0, ...handles]) h.close();
      await until('the poller to stop', () => !tail.running);
    }
  });

  it('drops what a subscriber read ahead of the shared tail', async () => {
    const log = new FakeLog();
    log.append(2);
    const tail = new EventTail(log, { pollMs: 150 });
    const live = collector();
    tail.subscribe(undefined, live);
    await until('the first poll', () => log.reads > 0);
    log.append(5); // the tail reads these only at its next poll
    const ahead = collector();
    tail.subscribe({ xid: '100', seq: '1' }, ahead); // behind the tail: catches up past it, to the end
    await until('the catch-up', () => ahead.keys.length === 6);
    await until('the next poll', () => live.keys.length === 5);
    log.append(1);
    await until('the one after', () => live.keys.length === 6);
    expect(ahead.keys).toEqual(log.committed().slice(1));
    expect(live.keys).toEqual(log.committed().slice(2));
    tail.close();
  });

  it('delivers a late commit of an older transaction, never skipping it', async () => {
    const log = new FakeLog();
    const tail = new EventTail(log, { pollMs: 5, pageSize: 2 });
    const a = collector();
    tail.subscribe(undefined, a);
    const old = log.begin();
    old.add(2);
    log.append(3); // newer xid, committed first: held back behind the open one
    await sleep(30);
    expect(a.keys).toEqual([]);
    const b = collector();
    tail.subscribe({ xid: '0', seq: '0' }, b);
    old.commit();
    await until('both to see all five', () => a.keys.length === 5 && b.keys.length === 5);
    expect(a.keys).toEqual(log.committed());
    expect(b.keys).toEqual(log.committed());
    tail.close();
  });

  it('runs only while a subscription is open, and completes them all on close', async () => {
    const log = new FakeLog();
    const tail = new EventTail(log, { pollMs: 5 });
    expect(tail.running).toBe(false);
    const a = collector();
    const h = tail.subscribe(undefined, a);
    await until('start', () => tail.running);
    h.close();
    await until('stop', () => !tail.running);
    const reads = log.reads;
    await sleep(30);
    expect(log.reads).toBe(reads);
    const b = collector();
    tail.subscribe({ xid: '0', seq: '0' }, b);
    log.append(1);
    await until('b to receive', () => b.keys.length === 1);
    expect(tail.size).toBe(1);
    tail.close();
    expect(b.completed).toBe(true);
    expect(tail.size).toBe(0);
    await until('stop', () => !tail.running);
  });

  it('keeps the shared tail going through a failed read', async () => {
    const log = new FakeLog();
    const errors: unknown[] = [];
    const tail = new EventTail(log, { pollMs: 5, onError: (e) => errors.push(e) });
    const a = collector();
    tail.subscribe(undefined, a);
    await until('start', () => tail.running && log.reads > 0);
    const real = log.readAfter.bind(log);
    let failed = false;
    log.readAfter = async (p, l) => {
      if (!failed) {
        failed = true;
        throw new Error('connection reset');
      }
      return real(p, l);
    };
    // The event comes after the failed read (a read already in flight when the log was patched could deliver it first).
    await until('the failed read', () => failed);
    log.append(2);
    await until('a to receive', () => a.keys.length === 2);
    expect(errors).toHaveLength(1);
    expect(a.errors).toEqual([]);
    tail.close();
  });
});
