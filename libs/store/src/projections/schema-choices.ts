import type { DataSource } from 'typeorm';
import type { SchemaUsed } from '../../../audit/src/index.js';
import type { Queryable } from '../database/queryable.js';

/**
 * The schema a projection state was folded with is stored by reference: `ownership_states.schema_id`
 * points at a row of `schema_choices` (`{source, typeName, digest}`, a handful per cluster). Stored
 * inline, the digest and type name cost every state about 270 bytes.
 *
 * Rows of `schema_choices` are never deleted or changed, so an id, once committed, stays valid: each
 * data source keeps the ids it has seen. A new choice is added outside the caller's transaction (an
 * id from a transaction that rolled back would point nowhere).
 */
const known = new WeakMap<DataSource, Map<string, number>>();

/** A choice's row values: a deduced schema has no type name, stored as '' so the unique key holds. */
const rowOf = (s: SchemaUsed) => ({ source: s.source, type_name: s.typeName ?? '', digest: s.digest });
const keyOf = (r: { source: string; type_name: string; digest: string }): string => JSON.stringify([r.source, r.type_name, r.digest]);

/**
 * The ids of `choices`, adding the ones not stored yet. Inside a transaction (`tx`), the ones added
 * are added there and not kept for later (the transaction may roll back); the ones already stored
 * are kept.
 */
export async function schemaChoiceIds(dataSource: DataSource, choices: readonly SchemaUsed[], tx?: Queryable): Promise<ReadonlyMap<string, number>> {
  let ids = known.get(dataSource);
  if (!ids) known.set(dataSource, (ids = new Map()));
  const missing = new Map<string, ReturnType<typeof rowOf>>();
  for (const c of choices) {
    const row = rowOf(c);
    const key = keyOf(row);
    if (!ids.has(key)) missing.set(key, row);
  }
  if (missing.size === 0) return ids;
  // In key order: two transactions adding the same choices lock their rows in the same order (no deadlock).
  const sorted = () => JSON.stringify([...missing.keys()].sort().map((k) => missing.get(k)!));
  const runner = tx ?? dataSource;
  const stored: { id: number; source: string; type_name: string; digest: string }[] = await runner.query(
    `SELECT c.id, c.source, c.type_name, c.digest FROM schema_choices c
     JOIN json_to_recordset($1::json) AS r(source text, type_name text, digest text) USING (source, type_name, digest)`,
    [sorted()],
  );
  for (const r of stored) {
    ids.set(keyOf(r), r.id);
    missing.delete(keyOf(r));
  }
  if (missing.size === 0) return ids;
  // DO UPDATE (a no-op change) rather than DO NOTHING: RETURNING then gives the id of a row another
  // process added too.
  const added: { id: number; source: string; type_name: string; digest: string }[] = await runner.query(
    `INSERT INTO schema_choices (source, type_name, digest)
     SELECT * FROM json_to_recordset($1::json) AS r(source text, type_name text, digest text)
     ON CONFLICT (source, type_name, digest) DO UPDATE SET source = EXCLUDED.source
     RETURNING id, source, type_name, digest`,
    [sorted()],
  );
  const out = tx ? new Map(ids) : ids;
  for (const r of added) out.set(keyOf(r), r.id);
  return out;
}

/** The id of `choice` in what {@link schemaChoiceIds} returned for it. */
export const schemaChoiceId = (ids: ReadonlyMap<string, number>, choice: SchemaUsed): number => {
  const key = keyOf(rowOf(choice));
  const id = ids.get(key);
  if (id === undefined) throw new Error(`schema choice ${key} has no id`);
  return id;
};

/**
 * SQL for the recorded schema of the state row `alias` as JSON (`{source, typeName, digest}`, what
 * `SchemaUsed` is), or null where none is recorded: select it `AS schema`.
 */
export const recordedSchemaSql = (alias: string): string =>
  `(SELECT json_build_object('source', c.source, 'typeName', nullif(c.type_name, ''), 'digest', c.digest)
    FROM schema_choices c WHERE c.id = ${alias}.schema_id)`;

/** SQL for the digest of the recorded schema of the state row `alias` (null where none is recorded). */
export const recordedDigestSql = (alias: string): string => `(SELECT c.digest FROM schema_choices c WHERE c.id = ${alias}.schema_id)`;
