import { decodableJsonSql } from './decodable-json.sql.js';
import type { AsOf } from '../../../audit/src/index.js';

/**
 * The object's latest event up to `at=` and the ownership version in force then, as two lateral
 * joins of a query over `ownership_states s`: `t.seq` (null: no event by then), `t.prefix` (the
 * events up to a time are every event up to one sequence), and `v.deleted`, `v.fold_required`,
 * `v.fields` (null: no version). `objectId` is the object's id as a bigint expression; `seq` and
 * `time` are the placeholders of {@link versionAtParams}. Both placeholders are used whatever the
 * kind (a prepared statement must type each one).
 */
export function versionInForceSql(objectId: string, kind: AsOf['kind'], seq: string, time: string): string {
  // Events are compared to the millisecond, as the fold compares them (Date.parse).
  const target = kind === 'seq' ? `e.seq <= ${seq}::bigint` : `date_trunc('milliseconds', e.observed_at) <= ${time}::timestamptz`;
  return `CROSS JOIN LATERAL (
       SELECT max(e.seq) FILTER (WHERE ${target}) AS seq,
              -- the events up to a time are every event up to one sequence only when no earlier one is later
              coalesce(min(e.seq) FILTER (WHERE NOT (${target})) > max(e.seq) FILTER (WHERE ${target}), true) AS prefix
       FROM events e WHERE e.object_id = ${objectId} AND (${seq}::bigint IS NULL OR e.seq <= ${seq}::bigint OR ${time}::timestamptz IS NOT NULL)
     ) t
     LEFT JOIN LATERAL (
       SELECT v.deleted, v.fold_required, v.fields FROM ownership_versions v
       WHERE v.generation = s.generation AND v.object_id = s.object_id AND v.seq <= t.seq
       ORDER BY v.seq DESC LIMIT 1
     ) v ON true`;
}

/**
 * True where the version in force answers exactly, else the events must be folded: the events up
 * to `at` are a prefix of the history, the object has a version then, its latest event up to `at`
 * was readable, and the projection has got that far.
 */
export const VERSION_ANSWERS = `coalesce(t.prefix AND v.fields IS NOT NULL AND NOT v.fold_required AND t.seq <= s.last_seq, false)`;

/**
 * True when the manager (`manager`, a placeholder) owns a field in the stored owned fields
 * (`fields`, `encodeOwnedFields`' form): its owners are only those a field references, each an
 * array whose first value is the manager or (rows written before) an object with a `manager` key.
 * The audit lib's `managerOwnsAField` says the same of decoded fields (the objects that fold use it).
 */
export const ownsAFieldSql = (fields: string, manager: string): string =>
  `EXISTS (SELECT 1 FROM json_array_elements(${decodableJsonSql(fields)}->'owners') o WHERE (CASE json_typeof(o) WHEN 'array' THEN o->>0 ELSE o->>'manager' END) = ${manager}::text)`;

/** `at=` as the placeholders of {@link versionInForceSql}: `[sequence, time]`, the time to the millisecond as events are compared. */
export function versionAtParams(at: AsOf): [string | null, string | null] {
  return at.kind === 'seq' ? [at.seq, null] : [null, new Date(at.ms).toISOString()];
}
