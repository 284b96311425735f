import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Transitions are changes: an object's first observation is stored once, as its first ownership
 * version (the baseline), and its `acquired` transitions are answered from it. The rows the
 * projector wrote for first observations before (one per owned path and owner, at the object's
 * `first_seq`) are deleted; no event is touched. Nothing else at `first_seq` was ever stored.
 */
export class BaselineTransitions1795500000000 implements MigrationInterface {
  name = 'BaselineTransitions1795500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `DELETE FROM field_transitions t USING ownership_states s
       WHERE t.generation = s.generation AND t.object_id = s.object_id AND t.seq = s.first_seq`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    // The baseline rows are derived: rebuild them with a full replay (POST /v1/replays {"scope":"all"}) on the old version.
    await q.query(`SELECT 1`);
  }
}
