import type { ObjectOwnershipState } from './object-ownership.projection.js';
import type { OwnershipProjectionStore, ProjectedBatch } from './project-events.use-case.js';
import { WriteBehindProjectionStore } from './write-behind.projection-store.js';

const state = (objectId: string, lastSeq: string) => ({ objectId, lastSeq }) as unknown as ObjectOwnershipState;
const batch = (checkpoint: string, ...states: ObjectOwnershipState[]): ProjectedBatch => ({ states, transitions: [], versions: [], managerIndex: [], managerIndexVersions: [], findings: [], findingsVersions: [], checkpoint, foldedFrom: new Map(), outOfTimeOrder: new Set() });

/** A table in memory whose writes finish when the test says so. */
class SlowTable {
  readonly rows = new Map<string, ObjectOwnershipState>();
  readonly log: string[] = [];
  private readonly gates: { checkpoint: string | null; open: () => void; fail: (e: Error) => void }[] = [];
  store(): OwnershipProjectionStore {
    return {
      load: async (ids) => {
        this.log.push(`load ${ids.join(',')}`);
        return new Map(ids.filter((id) => this.rows.has(id)).map((id) => [id, this.rows.get(id)!]));
      },
      save: (b) =>
        new Promise<void>((resolve, reject) => {
          this.log.push(`write ${b.checkpoint}`);
          this.gates.push({
            checkpoint: b.checkpoint,
            open: () => {
              for (const s of b.states) this.rows.set(s.objectId, s);
              this.log.push(`committed ${b.checkpoint}`);
              resolve();
            },
            fail: reject,
          });
        }),
    };
  }
  finish(): void {
    this.gates.shift()!.open();
  }
  fail(e: Error): void {
    this.gates.shift()!.fail(e);
  }
}

const tick = () => new Promise((r) => setImmediate(r));

describe('WriteBehindProjectionStore', () => {
  it('returns from a save at once, answers its objects from memory meanwhile, writes pages in order one at a time', async () => {
    const table = new SlowTable();
    const writes = new WriteBehindProjectionStore();
    const done: string[] = [];
    const a1 = state('a', '1');
    const first = writes.wrap(table.store(), (b) => void done.push(b.checkpoint!));
    await first.save(batch('1', a1));
    expect(table.log).toEqual(['write 1']);

    // The next page: a from memory (its write is in flight), b from the table.
    const second = writes.wrap(table.store(), (b) => void done.push(b.checkpoint!));
    const loaded = await second.load(['a', 'b']);
    expect(loaded.get('a')).toBe(a1);
    expect(table.log).toEqual(['write 1', 'load b']);

    // Its save waits for the first write, then starts its own.
    let saved = false;
    const saving = second.save(batch('2', state('a', '2'))).then(() => (saved = true));
    await tick();
    expect(saved).toBe(false);
    table.finish();
    await saving;
    expect(table.log).toEqual(['write 1', 'load b', 'committed 1', 'write 2']);
    expect(done).toEqual(['1']);
    expect((await writes.wrap(table.store()).load(['a'])).get('a')!.lastSeq).toBe('2');

    const flushed = writes.flush();
    table.finish();
    await flushed;
    expect(done).toEqual(['1', '2']);
    // Written: read from the table again.
    await writes.wrap(table.store()).load(['a']);
    expect(table.log.at(-1)).toBe('load a');
  });

  it('a failed write fails the next save (nothing after it is written) and the flush', async () => {
    const table = new SlowTable();
    const writes = new WriteBehindProjectionStore();
    await writes.wrap(table.store()).save(batch('1', state('a', '1')));
    const next = writes.wrap(table.store()).save(batch('2', state('a', '2')));
    table.fail(new Error('connection lost'));
    await expect(next).rejects.toThrow('connection lost');
    await expect(writes.flush()).rejects.toThrow('connection lost');
    expect(table.log).toEqual(['write 1']);
  });
});
