import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ownership versions: an object's owned fields, marks and deleted flag from each event that changed
 * them. An `at=` read takes the version in force at that sequence and the body of the object's
 * latest event up to it, instead of folding every event again. `json`, not `jsonb`: written once,
 * read whole, never queried inside (and cheaper to write).
 */
export class CreateOwnershipVersions1795300000000 implements MigrationInterface {
  name = 'CreateOwnershipVersions1795300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ownership_versions (
        generation integer NOT NULL,
        object_id text NOT NULL,
        seq bigint NOT NULL,
        deleted boolean NOT NULL,
        fold_required boolean NOT NULL,
        fields json NOT NULL,
        marks json NOT NULL,
        CONSTRAINT pk_ownership_versions PRIMARY KEY (generation, object_id, seq)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ownership_versions`);
  }
}
