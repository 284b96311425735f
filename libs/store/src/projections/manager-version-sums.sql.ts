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

/**
 * SQL: {@link versionSumsFromCheckpoint} by time (migration `ManagerTimeCheckpoints`): the sums of the
 * versions of `generation` in force at the time `time` (as `at=<time>` compares them: from `at`
 * until `until_at`, a missing time before every time), from the time checkpoint at `checkpoint`
 * (null: none, summed from the start, the versions without a start time included). Over every
 * object, those out of time order included. `checkpoint` and `time` are SQL expressions typed
 * timestamptz there.
 */
export const versionSumsFromTimeCheckpoint = (generation: string, checkpoint: string, time: string): string => `
  SELECT t.cluster, t.manager, t.identities, t.objects, t.fields
  FROM manager_time_checkpoint_totals t WHERE t.generation = ${generation} AND t.at = ${checkpoint}
  UNION ALL
  SELECT m.cluster, m.manager, m.identities::text, 1, coalesce(m.identity_field_count, m.field_count)
  FROM manager_objects_versions m
  WHERE m.generation = ${generation} AND m.at > coalesce(${checkpoint}, '-infinity') AND m.at <= ${time}
    AND (m.until_seq IS NULL OR coalesce(m.until_at, '-infinity') > m.at)
  UNION ALL
  SELECT m.cluster, m.manager, m.identities::text, 1, coalesce(m.identity_field_count, m.field_count)
  FROM manager_objects_versions m
  WHERE ${checkpoint} IS NULL AND m.generation = ${generation} AND m.at IS NULL AND (m.until_seq IS NULL OR m.until_at IS NOT NULL)
  UNION ALL
  SELECT m.cluster, m.manager, m.identities::text, -1, -coalesce(m.identity_field_count, m.field_count)
  FROM manager_objects_versions m
  WHERE m.generation = ${generation} AND m.until_seq IS NOT NULL AND m.until_at > coalesce(${checkpoint}, '-infinity') AND m.until_at <= ${time}
    AND m.until_at > coalesce(m.at, '-infinity')`;
