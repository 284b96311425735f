import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An object seen for the first time is inserted once, whole, by the statement that writes its
 * events (it used to be inserted bare when its batch locked its objects, then updated with its tip:
 * two row versions and two entries in each of its three indexes). Its id is drawn when the batch
 * reads its objects, and the batch records its idempotency keys in that same statement, before the
 * row exists: the keys' foreign key is checked at commit instead of at each statement. Catalog only.
 */
export class ObjectRowsWrittenOnce1795800000000 implements MigrationInterface {
  name = 'ObjectRowsWrittenOnce1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE observations_seen ALTER CONSTRAINT fk_observations_seen_object DEFERRABLE INITIALLY DEFERRED`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE observations_seen ALTER CONSTRAINT fk_observations_seen_object NOT DEFERRABLE`);
  }
}
