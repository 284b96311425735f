import { LARGEST_OBJECT_BYTES, ListPageLimit } from './list-page-limit.js';

const MiB = 1024 * 1024;

describe('ListPageLimit', () => {
  it('asks the first page for as many objects as fit at the largest object size', () => {
    expect(new ListPageLimit(500, 8 * MiB).next()).toBe(Math.floor((8 * MiB) / LARGEST_OBJECT_BYTES));
    expect(new ListPageLimit(500, 64 * 1024).next()).toBe(1);
    expect(new ListPageLimit(3, 1024 * MiB).next()).toBe(3);
  });

  it('then fits the byte bound at the size per object seen, up to the page size', () => {
    const small = new ListPageLimit(500, 8 * MiB);
    small.saw(5, 5 * 600);
    expect(small.next()).toBe(500);
    const large = new ListPageLimit(500, 8 * MiB);
    large.saw(5, 5 * 300_000);
    expect(large.next()).toBe(Math.floor((8 * MiB) / 300_000));
  });

  it('expects the largest size per object so far halved for every page since, where the last page was smaller; ignores an empty page', () => {
    const l = new ListPageLimit(500, 8 * MiB);
    l.saw(10, 10 * 1_000_000);
    expect(l.next()).toBe(8);
    l.saw(100, 100 * 1_000);
    l.saw(0, 200);
    expect(l.next()).toBe(Math.floor((8 * MiB) / 500_000));
  });

  it('after a run of large objects, the pages of small ones grow at most twice a page, back to the page size', () => {
    const l = new ListPageLimit(500, 8 * MiB);
    l.saw(8, 8 * 1_000_000);
    const limits: number[] = [];
    for (let page = 0; page < 12; page++) {
      const n = l.next();
      limits.push(n);
      l.saw(n, n * 600);
    }
    // 1 MB, then halved a page: 500 KB, 250 KB … until 600 bytes a page fit 500 objects.
    expect(limits).toEqual([8, 16, 33, 67, 134, 268, 500, 500, 500, 500, 500, 500]);
  });

  it('a run of large objects soon after the small ones still finds the pages small', () => {
    const l = new ListPageLimit(500, 8 * MiB);
    l.saw(8, 8 * 1_000_000);
    l.saw(8, 8 * 600);
    const n = l.next();
    expect(n).toBe(16);
    // Large again: that page's size per object is the peak now.
    l.saw(n, n * 2_000_000);
    expect(l.next()).toBe(4);
  });

  it('follows a list of objects that grow slowly page by page at the last size', () => {
    const l = new ListPageLimit(500, 8 * MiB);
    for (const per of [10_000, 20_000, 40_000]) l.saw(10, 10 * per);
    expect(l.next()).toBe(Math.floor((8 * MiB) / 40_000));
  });

  it('never asks for fewer than one object', () => {
    const l = new ListPageLimit(500, 64 * 1024);
    l.saw(1, 1_500_000);
    expect(l.next()).toBe(1);
  });

  it('goes back to the limit of the page before, for every next page, where there is another one', () => {
    const l = new ListPageLimit(500, 1_000_000);
    expect(l.keepPrevious()).toBeUndefined();
    expect(l.next()).toBe(1);
    l.saw(1, 300_000);
    expect(l.next()).toBe(3);
    expect(l.keepPrevious()).toBe(1);
    l.saw(1, 1_000);
    expect(l.next()).toBe(1);
    expect(l.keepPrevious()).toBeUndefined();
  });
});
