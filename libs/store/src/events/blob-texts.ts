import { preparedOrPlainQuery } from '../database/prepared-query.js';
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

/**
 * The texts of the managedFields list blobs with these hashes (hex), and of every entry blob they
 * list, by hash, in one statement (a list is the JSON array of its entries' hashes, hex); a hash
 * with no stored blob is missing from its map.
 */
export async function readManagedFieldsTexts(runner: Queryable, listHexes: readonly string[]): Promise<{ lists: Map<string, string>; entries: Map<string, string> }> {
  if (listHexes.length === 0) return { lists: new Map(), entries: new Map() };
  // Prepared where `runner` is a data source: the loader runs it for every load of events.
  const rows = await preparedOrPlainQuery<{ h: string; t: string; list: boolean }>(
    runner,
    'managed-fields-texts',
    `WITH l AS (SELECT b.hash, convert_from(b.bytes, 'UTF8') AS t FROM blobs b WHERE b.hash = ANY($1::bytea[]))
     SELECT encode(l.hash, 'hex') AS h, l.t, true AS list FROM l
     UNION ALL
     SELECT encode(b.hash, 'hex'), convert_from(b.bytes, 'UTF8'), false
     FROM blobs b WHERE b.hash IN (SELECT decode(x.h, 'hex') FROM l, json_array_elements_text(l.t::json) AS x(h))`,
    [listHexes.map((h) => Buffer.from(h, 'hex'))],
  );
  const lists = new Map<string, string>();
  const entries = new Map<string, string>();
  for (const r of rows) (r.list ? lists : entries).set(r.h, r.t);
  return { lists, entries };
}
