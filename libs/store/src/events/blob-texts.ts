import type { Queryable } from '../database/queryable.js';

/**
 * The texts of the blobs with these hashes (hex), by hash, in one statement; a hash with no
 * stored blob is missing from the map.
 */
export async function readBlobTexts(runner: Queryable, hexes: readonly string[]): Promise<Map<string, string>> {
  if (hexes.length === 0) return new Map();
  const rows = (await runner.query(
    `SELECT encode(hash, 'hex') AS h, convert_from(bytes, 'UTF8') AS t FROM blobs WHERE hash = ANY($1::bytea[])`,
    [hexes.map((h) => Buffer.from(h, 'hex'))],
  )) as { h: string; t: string }[];
  return new Map(rows.map((r) => [r.h, r.t]));
}
