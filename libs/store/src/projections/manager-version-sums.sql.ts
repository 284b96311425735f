/**
 * SQL: the sums of the manager index's versions of generation `generation` in force at sequence
 * `seq`, from the checkpoint at `checkpoint` (null: none, summed from the start): its rows, plus
 * every version that starts after it up to `seq`, minus every version that ends after it up to
 * `seq`. Rows keyed as `manager_totals` keys them (cluster, manager, identities); a key's rows sum to
 * its total. A version that ends where or before it starts is never in force and counts nowhere (as
 * the migration's triggers count it). The arguments are SQL expressions (`checkpoint` and `seq`
 * typed bigint there).
 */
const versionSumsFromCheckpoint = (generation: string, checkpoint: string, seq: string): string => `
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
const versionSumsFromTimeCheckpoint = (generation: string, checkpoint: string, time: string): string => `
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

/** The manager index's checkpoints along one axis: their tables, the position's column and SQL type, and the sums from one. */
export interface CheckpointTables {
  /** `manager_checkpoints` by sequence (migration `ManagerCheckpoints`), `manager_time_checkpoints` by time (`ManagerTimeCheckpoints`). */
  readonly table: string;
  readonly totals: string;
  readonly column: 'seq' | 'at';
  readonly type: 'bigint' | 'timestamptz';
  /** SQL: the sums in force at `moment` from the checkpoint at `checkpoint` (SQL expressions; `checkpoint` null: none). */
  sums(generation: string, checkpoint: string, moment: string): string;
}

export const SEQUENCE_CHECKPOINTS: CheckpointTables = {
  table: 'manager_checkpoints', totals: 'manager_checkpoint_totals', column: 'seq', type: 'bigint', sums: versionSumsFromCheckpoint,
};

export const TIME_CHECKPOINTS: CheckpointTables = {
  table: 'manager_time_checkpoints', totals: 'manager_time_checkpoint_totals', column: 'at', type: 'timestamptz', sums: versionSumsFromTimeCheckpoint,
};

/**
 * SQL: the sums of the manager index's versions of generation `generation` in force at `moment` (a
 * placeholder, typed by the axis `axis`), from the nearest checkpoint at or before it (none: from
 * the start), keyed as {@link versionSumsFromCheckpoint} says.
 */
export const versionSumsAt = (axis: CheckpointTables, generation: string, moment: string): string => `
  WITH g AS MATERIALIZED (SELECT ${generation} AS generation),
       c AS MATERIALIZED (SELECT (SELECT max(c.${axis.column}) FROM ${axis.table} c WHERE c.generation = g.generation AND c.${axis.column} <= ${moment}::${axis.type}) AS position FROM g)
  ${axis.sums('(SELECT g.generation FROM g)', '(SELECT c.position FROM c)', `${moment}::${axis.type}`)}`;
