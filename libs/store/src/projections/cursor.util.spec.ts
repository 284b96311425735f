import { decodeCursor, encodeCursor, isString, pageOf } from './cursor.util.js';
import { StoreQueryError } from './store-query.error.js';

describe('cursors', () => {
  it('round-trips a value for its own list only', () => {
    const c = encodeCursor('objects', '42');
    expect(decodeCursor('objects', c, isString)).toBe('42');
    expect(() => decodeCursor('managers', c, isString)).toThrow(StoreQueryError);
    expect(decodeCursor('objects', undefined, isString)).toBeUndefined();
  });

  it('refuses what it did not hand out', () => {
    for (const bad of ['bogus', encodeCursor('objects', 42), Buffer.from('{"l":"objects"').toString('base64url')]) {
      expect(() => decodeCursor('objects', bad, isString)).toThrow(expect.objectContaining({ code: 'invalid-cursor', parameter: 'cursor' }));
    }
  });

  it('pages an in-memory list to the end', () => {
    const all = [1, 2, 3, 4, 5];
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = pageOf('findings', all, cursor, 2);
      seen.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(pageOf('findings', all, undefined, 5).nextCursor).toBeNull();
  });
});
