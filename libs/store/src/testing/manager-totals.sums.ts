import type { DataSource } from 'typeorm';

/**
 * For tests: the sums of `manager_totals` key by key, as `GET /v1/managers` reads them, and the same
 * sums counted from the index rows themselves (`manager_objects`), in one order: equal whenever the
 * totals follow the index.
 */
export async function managerTotalsAndIndexSums(ds: DataSource): Promise<{ totals: unknown[]; counted: unknown[] }> {
  const totals: unknown[] = await ds.query(
    `SELECT generation, cluster, manager, identities, sum(objects)::integer AS objects, sum(fields)::integer AS fields
     FROM manager_totals GROUP BY generation, cluster, manager, identities HAVING sum(objects) <> 0 OR sum(fields) <> 0
     ORDER BY generation, cluster, manager COLLATE "C", identities`,
  );
  const counted: unknown[] = await ds.query(
    `SELECT generation, cluster, manager, identities::text AS identities, count(*)::integer AS objects,
            sum(coalesce(identity_field_count, field_count))::integer AS fields
     FROM manager_objects GROUP BY generation, cluster, manager, identities::text
     ORDER BY generation, cluster, manager COLLATE "C", identities`,
  );
  return { totals, counted };
}
