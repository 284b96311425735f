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

  it('keeps the largest size per object of the pages so far, and ignores an empty page', () => {
    const l = new ListPageLimit(500, 8 * MiB);
    l.saw(10, 10 * 1_000_000);
    l.saw(100, 100 * 1_000);
    l.saw(0, 200);
    expect(l.next()).toBe(8);
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
