import { StoreQueryError } from './store-query.error.js';

/** A page of a list and the opaque cursor of the next one (`null` at the end). */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

/** Cursors are opaque to clients: base64url of a small JSON value, tagged with the list they belong to. */
export function encodeCursor(list: string, value: unknown): string {
  return Buffer.from(JSON.stringify({ l: list, v: value })).toString('base64url');
}

export function decodeCursor<T>(list: string, cursor: string | undefined, valid: (v: unknown) => v is T): T | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { l?: unknown; v?: unknown };
    if (parsed.l === list && valid(parsed.v)) return parsed.v;
  } catch {
    // fall through
  }
  throw new StoreQueryError('invalid-cursor', 'cursor must be a nextCursor returned by this list', 'cursor');
}

/** True when `cursor` is a cursor of `list` (whatever its value): a list answered in two ways can tell which way gave it. */
export function isCursorOf(list: string, cursor: string | undefined): boolean {
  if (cursor === undefined || cursor === '') return false;
  try {
    return (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { l?: unknown }).l === list;
  } catch {
    return false;
  }
}

export const isString = (v: unknown): v is string => typeof v === 'string';
export const isOffset = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** Pages an in-memory list with an offset cursor. */
export function pageOf<T>(list: string, all: readonly T[], cursor: string | undefined, limit: number): Page<T> {
  const from = decodeCursor(list, cursor, isOffset) ?? 0;
  const items = all.slice(from, from + limit);
  return { items, nextCursor: from + limit < all.length ? encodeCursor(list, from + limit) : null };
}
