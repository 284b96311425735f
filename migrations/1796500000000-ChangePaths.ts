import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `events.change_paths`: for every event, a 64-bit summary of the paths whose value can differ from
 * the object's event before (`changePathsOf…` in libs/store), so that a field's history and
 * explanation find the events where its value can change by one bit test per event, without reading
 * a body. `objects.last_patch_ops`: the operations of the object's last event's patch (their digests
 * and paths, after that event's sequence), which the next event's summary compares with its own.
 *
 * Both null for everything written before: an object with an event without a summary is read as
 * before (every patch's own summary and text filtered), so nothing is backfilled; an object's first
 * event after the upgrade counts every path as changed, and the ones after it are summarized.
 * Nullable columns without a default change only the catalog (no rewrite).
 */
export class ChangePaths1796500000000 implements MigrationInterface {
  name = 'ChangePaths1796500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN change_paths bigint`);
    await q.query(`ALTER TABLE objects ADD COLUMN last_patch_ops bytea`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE objects DROP COLUMN last_patch_ops`);
    await q.query(`ALTER TABLE events DROP COLUMN change_paths`);
  }
}
