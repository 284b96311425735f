import { boundedChunks } from './bounded-chunks.util.js';

describe('boundedChunks', () => {
  const size = (n: number) => n;

  it('cuts by count where the items are small', () => {
    expect(boundedChunks([1, 1, 1, 1, 1], 2, 100, size)).toEqual([[1, 1], [1, 1], [1]]);
  });

  it('closes a chunk before the item that would pass the bytes, and gives a larger item a chunk of its own', () => {
    expect(boundedChunks([40, 40, 30, 150, 10, 90, 20], 10, 100, size)).toEqual([[40, 40], [30], [150], [10, 90], [20]]);
  });

  it('keeps the order and every item, and gives nothing for nothing', () => {
    const items = Array.from({ length: 200 }, (_, i) => (i * 37) % 61);
    const chunks = boundedChunks(items, 7, 120, size);
    expect(chunks.flat()).toEqual(items);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(7);
      if (c.length > 1) expect(c.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(120);
    }
    expect(boundedChunks([], 3, 10, size)).toEqual([]);
  });
});
