import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `events.patch_paths`: for an event stored as a snapshot patch, a 64-bit summary of the paths its
 * operations are on (`patchPathsOf` in libs/store), so that a field's history and explanation skip,
 * without reading their bodies, the patches that cannot change its value. Null for snapshots and for
 * every event written before: those are read and filtered by their text as before, so nothing is
 * backfilled. Adding a nullable column without a default changes only the catalog (no rewrite).
 */
export class PatchPaths1796300000000 implements MigrationInterface {
  name = 'PatchPaths1796300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN patch_paths bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events DROP COLUMN patch_paths`);
  }
}
