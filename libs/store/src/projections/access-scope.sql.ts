import type { AccessScope, ScopedView } from '../../../audit/src/index.js';

/**
 * `AND <objectId> IN (the objects of these scopes)` (projection tables key objects by text), its four
 * array parameters numbered from `first`;
 * no filter at all for `undefined` (the caller sees every object), none visible for an empty list.
 * A join with every object: for the lists that read the states anyway (the aggregates use `seenBy`).
 */
export function inScopes(objectId: string, scopes: readonly AccessScope[] | undefined, first: number): { sql: string; params: unknown[] } {
  if (scopes === undefined) return { sql: '', params: [] };
  const [c, g, r, n] = [first, first + 1, first + 2, first + 3];
  return {
    sql: ` AND ${objectId} IN (
      SELECT o.id::text FROM objects o JOIN clusters cl ON cl.id = o.cluster_id
      JOIN unnest($${c}::text[], $${g}::text[], $${r}::text[], $${n}::text[]) AS v(cluster, api_group, resource, namespace)
        ON v.cluster = cl.name AND v.api_group = o.api_group AND v.resource = o.resource AND v.namespace = o.namespace)`,
    params: [scopes.map((s) => s.cluster), scopes.map((s) => s.group), scopes.map((s) => s.resource), scopes.map((s) => s.namespace)],
  };
}

/**
 * An SQL subquery (`SELECT unnest(…)`) of the ids of the objects in every tracked scope but
 * `allowed` (none for `undefined`), as `object_scopes` holds them when the statement runs (a scope first
 * tracked since the caller's scopes were read is among them); its four array parameters numbered from `first`.
 *
 * Part of the statement that takes those objects away from every object's sums, so that both see the
 * same objects: read by a statement of its own, an object committed in between would be summed and
 * not taken away. A filter of many rows takes it as `NOT IN (…)`, which Postgres hashes (`<> ALL`
 * over a computed array compared each row with every id: 35 → 173 ms for `findings` with 18,000
 * objects hidden); a lookup by an index as `= ANY (ARRAY(…))` (`IN` and `OR` forms planned worse here).
 */
export function outsideScopes(allowed: readonly AccessScope[] | undefined, first: number): { sql: string; params: unknown[] } {
  // Every scope allowed (no caller's view): no object.
  if (allowed === undefined) return { sql: `SELECT NULL::text WHERE false`, params: [] };
  return objectsOfScopes(allowed, 'NOT EXISTS', first);
}

/**
 * The ids of the objects in the tracked scopes that are (`EXISTS`) or are not (`NOT EXISTS`) among
 * `allowed`, as an SQL subquery (`SELECT unnest(…)`) and as an array expression (`ARRAY(…)`): those
 * scopes found first (materialized: planned as one join, Postgres read every object and then tested
 * its scope, 100 ms at 20,000 objects), then their objects by the objects' (cluster, kind,
 * namespace, name) index. Their four array parameters numbered from `first`.
 */
function objectsOfScopes(allowed: readonly AccessScope[], among: 'EXISTS' | 'NOT EXISTS', first: number): { sql: string; array: string; params: unknown[] } {
  const [c, g, r, n] = [first, first + 1, first + 2, first + 3];
  const array = `ARRAY(
      WITH chosen AS MATERIALIZED (
        SELECT s.cluster_id, s.api_group, s.resource, s.namespace, s.kind
        FROM object_scopes s JOIN clusters cl ON cl.id = s.cluster_id
        WHERE ${among} (
          SELECT 1 FROM unnest($${c}::text[], $${g}::text[], $${r}::text[], $${n}::text[]) AS a(cluster, api_group, resource, namespace)
          WHERE a.cluster = cl.name AND a.api_group = s.api_group AND a.resource = s.resource AND a.namespace = s.namespace))
      SELECT o.id::text
      FROM chosen h JOIN objects o ON o.cluster_id = h.cluster_id AND o.kind = h.kind AND o.namespace = h.namespace AND o.api_group = h.api_group AND o.resource = h.resource)`;
  return {
    sql: `SELECT unnest(${array})`,
    array,
    params: [allowed.map((a) => a.cluster), allowed.map((a) => a.group), allowed.map((a) => a.resource), allowed.map((a) => a.namespace)],
  };
}

/**
 * `AND <objectId> …`, its array parameters numbered from `first`: the rows of the objects `view`
 * counts, by the smaller side. Where it counts from every object's totals: not among the hidden
 * objects (`NOT IN`, which Postgres hashes). Else among the allowed objects, found from its scopes:
 * with `lookup` (the default) as `= ANY (ARRAY(…))`, for an index to look their rows up by id, so
 * the sums cost what the caller sees, not what the cluster holds (a join of every object with the
 * scopes read all of them: 13.5 ms for one namespace of 50 at 20,000 objects); with `filter` as `IN
 * (…)`, which Postgres hashes, for rows found another way (the objects out of time order: an array
 * computed in the statement is not hashed, and each row was compared with every id: 22 ms → 0.7 s
 * with 15,000 such objects). No filter without a view.
 */
export function seenBy(objectId: string, view: ScopedView | undefined, first: number, way: 'lookup' | 'filter' = 'lookup'): { sql: string; params: unknown[] } {
  if (view === undefined) return { sql: '', params: [] };
  if (view.fromTotals) {
    const hidden = outsideScopes(view.allowed, first);
    return { sql: ` AND ${objectId} NOT IN (${hidden.sql})`, params: hidden.params };
  }
  const shown = objectsOfScopes(view.allowed, 'EXISTS', first);
  return { sql: way === 'lookup' ? ` AND ${objectId} = ANY (${shown.array})` : ` AND ${objectId} IN (${shown.sql})`, params: shown.params };
}
