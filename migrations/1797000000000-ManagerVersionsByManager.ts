import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /v1/managers/{name}/fields?at=` from the versions instead of folding every object seen by
 * then: the manager's rows of `manager_objects_versions` found by name. The index keys only
 * (generation, manager), which B-tree deduplication stores once per page with a list of row
 * pointers, so it costs a few bytes per version row (docs/benchmarks.md: "Storage" of the round that
 * added it) where a key with the object id or the sequence would cost a whole entry each.
 * While the table's statistics lag its growth, a lookup by (object, manager) written as two
 * equalities may be planned on this index and walk every version of the manager: the projection's
 * batch names that key as a row range only the primary key serves (`ownership-projection.store.ts`,
 * "closing versions").
 *
 * Up: the index (writes to the versions wait while it is built). Down: dropped.
 */
export class ManagerVersionsByManager1797000000000 implements MigrationInterface {
  name = 'ManagerVersionsByManager1797000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX idx_manager_objects_versions_manager ON manager_objects_versions (generation, manager)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_manager_objects_versions_manager`);
  }
}
