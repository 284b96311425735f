import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The findings and the manager index as of a time, so `GET /v1/findings?at=<time>` and
 * `GET /v1/managers?at=<time>` read their versions instead of folding every object's events.
 *
 * - `findings_versions.at`, `manager_objects_versions.at`: when the event a version starts at was
 *   observed (to the millisecond, as `at=` compares events); `until_at`: the same of the event that
 *   ends it. Rows written before have none: they began (and those already ended, ended) before
 *   `time_versions_start`.
 * - `ownership_states.ordered_through`: the `last_seq` of the state while every event of the object
 *   since `time_versions_start` was observed no earlier than the one before it (the audit lib's
 *   `keepsTimeOrder`); null once one was not, or left behind by an earlier version's worker. While
 *   any state of the generation is not ordered through its `last_seq`, `at=` a time folds.
 * - `time_versions_start`: a generation that had states before this migration answers `at=` a time
 *   from its versions only from the newest event observed then (every older event is kept by any
 *   later time, so the rows without times are placed by it). No row: from the start.
 *
 * Every state is written once (`ordered_through`) and the events are read once (their newest time):
 * seconds per million rows.
 */
export class VersionTimes1796100000000 implements MigrationInterface {
  name = 'VersionTimes1796100000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['findings_versions', 'manager_objects_versions']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN at timestamptz, ADD COLUMN until_at timestamptz`);
    }
    await q.query(`ALTER TABLE ownership_states ADD COLUMN ordered_through bigint`);
    await q.query(`UPDATE ownership_states SET ordered_through = last_seq`);
    await q.query(`CREATE INDEX idx_ownership_states_out_of_time_order ON ownership_states (generation) WHERE ordered_through IS DISTINCT FROM last_seq`);
    await q.query(`
      CREATE TABLE time_versions_start (
        generation integer NOT NULL,
        at timestamptz NOT NULL,
        CONSTRAINT pk_time_versions_start PRIMARY KEY (generation)
      )`);
    await q.query(
      `INSERT INTO time_versions_start (generation, at)
       SELECT g.generation, t.at
       FROM (SELECT DISTINCT generation FROM ownership_states) g
       CROSS JOIN (SELECT date_trunc('milliseconds', max(observed_at)) AS at FROM events) t
       WHERE t.at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE time_versions_start`);
    await q.query(`ALTER TABLE ownership_states DROP COLUMN ordered_through`);
    for (const table of ['findings_versions', 'manager_objects_versions']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN at, DROP COLUMN until_at`);
    }
  }
}
