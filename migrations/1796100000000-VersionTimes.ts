import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The findings and the manager index as of a time, so `GET /v1/findings?at=<time>` and
 * `GET /v1/managers?at=<time>` read their versions instead of folding every object's events.
 *
 * - `findings_versions.at`, `manager_objects_versions.at`: when the event a version starts at was
 *   observed (to the millisecond, as `at=` compares events); `until_at`: the same of the event that
 *   ends it. Filled here from the events; null where the event is gone (a dropped partition): the
 *   row began, or ended, before every event kept.
 * - `ownership_states.ordered_through`: the `last_seq` of the state while each event of the object
 *   was observed no earlier than the one before it (the audit lib's `keepsTimeOrder`); null once one
 *   was not, or left behind by an earlier version's worker. Such objects are folded, one by one.
 *   Computed here from the events.
 * - `derived_versions_start.at`: a generation whose versions were filled at an upgrade (complete
 *   from `seq` on) answers `at=` a time from them only from when the newest event up to `seq` was
 *   observed.
 *
 * The tables it changes are locked first, in the order appends and the projector take them (states,
 * then versions), so a worker of the earlier version appending meanwhile waits instead of deadlocking.
 * Reads every event's sequence and time once (no bodies) and writes every state and version row once.
 */
export class VersionTimes1796100000000 implements MigrationInterface {
  name = 'VersionTimes1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE ownership_states, findings_versions, manager_objects_versions, derived_versions_start IN ACCESS EXCLUSIVE MODE`);
    const observed = (seq: string) => `(SELECT date_trunc('milliseconds', e.observed_at) FROM events e WHERE e.seq = ${seq})`;
    for (const table of ['findings_versions', 'manager_objects_versions']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN at timestamptz, ADD COLUMN until_at timestamptz`);
      await q.query(`UPDATE ${table} v SET at = ${observed('v.seq')}, until_at = CASE WHEN v.until_seq IS NOT NULL THEN ${observed('v.until_seq')} END`);
    }
    await q.query(`ALTER TABLE ownership_states ADD COLUMN ordered_through bigint`);
    // In time order: no event observed (to the millisecond) before one that came earlier in the log.
    await q.query(
      `UPDATE ownership_states s SET ordered_through = s.last_seq
       WHERE NOT EXISTS (
         SELECT 1 FROM (
           SELECT date_trunc('milliseconds', e.observed_at)
                  < max(date_trunc('milliseconds', e.observed_at)) OVER (ORDER BY e.seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS back
           FROM events e WHERE e.object_id = s.object_id::bigint
         ) x WHERE x.back
       )`,
    );
    await q.query(`CREATE INDEX idx_ownership_states_out_of_time_order ON ownership_states (generation) WHERE ordered_through IS DISTINCT FROM last_seq`);
    await q.query(`ALTER TABLE derived_versions_start ADD COLUMN at timestamptz`);
    await q.query(`UPDATE derived_versions_start d SET at = (SELECT date_trunc('milliseconds', max(e.observed_at)) FROM events e WHERE e.seq <= d.seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE derived_versions_start DROP COLUMN at`);
    await q.query(`ALTER TABLE ownership_states DROP COLUMN ordered_through`);
    for (const table of ['findings_versions', 'manager_objects_versions']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN at, DROP COLUMN until_at`);
    }
  }
}
