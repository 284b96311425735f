/**
 * SQL: the sums of the manager index's versions of generation `generation` in force at sequence
 * `seq`, from the checkpoint at `checkpoint` (null: none, summed from the start): its rows, plus
 * every version that starts after it up to `seq`, minus every version that ends after it up to
 * `seq`. Rows keyed as `manager_totals` keys them (cluster, manager, identities); a key's rows sum to
 * its total. A version that ends where or before it starts is never in force and counts nowhere (as
 * the migration's triggers count it). The arguments are SQL expressions (`checkpoint` and `seq`
 * typed bigint there).
 */
export const versionSumsFromCheckpoint = (generation: string, checkpoint: string, seq: string): string => `
  SELECT t.cluster, t.manager, t.identities, t.objects, t.fields
  FROM manager_checkpoint_totals t WHERE t.generation = ${generation} AND t.seq = ${checkpoint}
  UNION ALL
  SELECT m.cluster, m.manager, m.identities::text, 1, coalesce(m.identity_field_count, m.field_count)
  FROM manager_objects_versions m
  WHERE m.generation = ${generation} AND m.seq > coalesce(${checkpoint}, -1) AND m.seq <= ${seq} AND (m.until_seq IS NULL OR m.until_seq > m.seq)
  UNION ALL
  SELECT m.cluster, m.manager, m.identities::text, -1, -coalesce(m.identity_field_count, m.field_count)
  FROM manager_objects_versions m
  WHERE m.generation = ${generation} AND m.until_seq IS NOT NULL AND m.until_seq > coalesce(${checkpoint}, -1) AND m.until_seq <= ${seq} AND m.until_seq > m.seq`;
