import { replayChunks } from './replay-chunks.js';

describe('replayChunks: the objects a replay rebuilds in one transaction', () => {
  const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => String(from + i));

  it('cuts by count: 250 objects of 3 events in chunks of 100, 100, 50, in order', () => {
    const lengths = new Map(ids(250).map((id) => [id, 3]));
    const chunks = replayChunks(ids(250), lengths, { objects: 100, events: 1_000 });
    expect(chunks.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunks.flat()).toEqual(ids(250));
  });

  it('cuts by events: no chunk past the bound but one object longer than it, which is alone', () => {
    const lengths = new Map([['1', 400], ['2', 400], ['3', 400], ['4', 5_000], ['5', 1], ['6', 999], ['7', 1_000], ['8', 1]]);
    const chunks = replayChunks(ids(8), lengths, { objects: 100, events: 1_000 });
    expect(chunks).toEqual([['1', '2'], ['3'], ['4'], ['5', '6'], ['7'], ['8']]);
  });

  it('counts an object of unknown or empty history as one event; no objects, no chunks', () => {
    expect(replayChunks(ids(5), new Map([['2', 0]]), { objects: 100, events: 3 })).toEqual([['1', '2', '3'], ['4', '5']]);
    expect(replayChunks([], new Map())).toEqual([]);
  });

  it('every object once, in order, for any lengths and bounds', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let run = 0; run < 200; run++) {
      const all = ids(Math.floor(random() * 60));
      const lengths = new Map(all.map((id) => [id, Math.floor(random() * 40)]));
      const bounds = { objects: 1 + Math.floor(random() * 10), events: 1 + Math.floor(random() * 60) };
      const chunks = replayChunks(all, lengths, bounds);
      expect(chunks.flat()).toEqual(all);
      for (const c of chunks) {
        expect(c.length).toBeGreaterThan(0);
        expect(c.length).toBeLessThanOrEqual(bounds.objects);
        const events = c.reduce((n, id) => n + Math.max(1, lengths.get(id)!), 0);
        if (c.length > 1) expect(events).toBeLessThanOrEqual(bounds.events);
      }
    }
  });
});
