import type { DataSource } from 'typeorm';
import type { SchemaUsed } from '../../../audit/src/index.js';

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

/** The ids of `choices`, adding the ones not stored yet. */
export async function schemaChoiceIds(dataSource: DataSource, choices: readonly SchemaUsed[]): Promise<ReadonlyMap<string, number>> {
  let ids = known.get(dataSource);
  if (!ids) known.set(dataSource, (ids = new Map()));
  const missing = new Map<string, ReturnType<typeof rowOf>>();
  for (const c of choices) {
    const row = rowOf(c);
    const key = keyOf(row);
    if (!ids.has(key)) missing.set(key, row);
  }
  if (missing.size > 0) {
    // DO UPDATE (a no-op change) rather than DO NOTHING: RETURNING then gives the id of a row another
    // process added too.
    const rows: { id: number; source: string; type_name: string; digest: string }[] = await dataSource.query(
      `INSERT INTO schema_choices (source, type_name, digest)
       SELECT * FROM json_to_recordset($1::json) AS r(source text, type_name text, digest text)
       ON CONFLICT (source, type_name, digest) DO UPDATE SET source = EXCLUDED.source
       RETURNING id, source, type_name, digest`,
      [JSON.stringify([...missing.values()])],
    );
    for (const r of rows) ids.set(keyOf(r), r.id);
  }
  return ids;
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
