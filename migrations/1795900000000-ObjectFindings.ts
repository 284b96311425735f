import type { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillObjectFindings } from '../libs/store/src/projections/object-findings.backfill.js';

/**
 * The findings of every object are stored with its state (one row per object that has any: its
 * findings in the order `GET /v1/findings` lists them), so the list reads an index in its order
 * instead of decoding every state. The projection writes them with the states; this fills them
 * from the states already stored (one pass, each state decoded once).
 */
export class ObjectFindings1795900000000 implements MigrationInterface {
  name = 'ObjectFindings1795900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE object_findings (
        generation integer NOT NULL,
        object_id text NOT NULL,
        cluster text NOT NULL,
        findings json NOT NULL,
        CONSTRAINT pk_object_findings PRIMARY KEY (generation, object_id)
      )`);
    // The list's order: cluster, then object id, compared as the audit lib compares strings (code points, as "C" does).
    await q.query(`CREATE INDEX idx_object_findings_order ON object_findings (generation, cluster COLLATE "C", object_id COLLATE "C")`);
    await backfillObjectFindings(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE object_findings`);
  }
}
