import type { AccessScope } from '../../../audit/src/index.js';

/**
 * `AND <objectId> IN (the objects of these scopes)` (projection tables key objects by text), its four
 * array parameters numbered from `first`;
 * no filter at all for `undefined` (the caller sees every object), none visible for an empty list.
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
