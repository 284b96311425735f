import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lets Postgres update a projection state in place (a HOT update: the new row goes on the same page
 * when it has room, no index changes, and the old row is pruned with the page instead of waiting for
 * vacuum).
 *
 * Before, no update of `ownership_states` could be HOT: its two partial indexes named `last_seq`,
 * `versions_through` and `ordered_through` in their conditions, and every fold changes all three, so
 * each event of an object wrote its state's new row elsewhere, with new entries in the table's
 * indexes that only vacuum removes again. The conditions are now two stored generated columns,
 * `versions_behind` and `out_of_time_order`, which Postgres computes on every write (a worker of an
 * earlier version that does not know them included) and which stay false while an object's
 * versions are current and its events in time order: an update that leaves them and the identity as
 * they were is HOT when the page has room. The indexes are the same two, on the new columns.
 *
 * Adding a stored column rewrites the table, holding it meanwhile: API reads and appends wait (see
 * docs/benchmarks.md for the time per million states). No fillfactor is set: a table listed once is
 * packed, so an object's first later event still moves its row (as before), and the room it leaves
 * on the page takes the next updates of that page's rows in place (measured: docs/benchmarks.md).
 */
export class StateUpdatesInPlace1796200000000 implements MigrationInterface {
  name = 'StateUpdatesInPlace1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_ownership_states_versions_behind`);
    await q.query(`DROP INDEX idx_ownership_states_out_of_time_order`);
    await q.query(
      `ALTER TABLE ownership_states
         ADD COLUMN versions_behind boolean NOT NULL GENERATED ALWAYS AS (versions_through IS DISTINCT FROM last_seq) STORED,
         ADD COLUMN out_of_time_order boolean NOT NULL GENERATED ALWAYS AS (ordered_through IS DISTINCT FROM last_seq) STORED`,
    );
    await q.query(`CREATE INDEX idx_ownership_states_versions_behind ON ownership_states (generation) WHERE versions_behind`);
    await q.query(`CREATE INDEX idx_ownership_states_out_of_time_order ON ownership_states (generation) WHERE out_of_time_order`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ownership_states DROP COLUMN versions_behind, DROP COLUMN out_of_time_order`);
    await q.query(`CREATE INDEX idx_ownership_states_versions_behind ON ownership_states (generation) WHERE versions_through IS DISTINCT FROM last_seq`);
    await q.query(`CREATE INDEX idx_ownership_states_out_of_time_order ON ownership_states (generation) WHERE ordered_through IS DISTINCT FROM last_seq`);
  }
}
