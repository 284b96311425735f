import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The schema each object's projection was folded with (`{source, typeName, digest}`), beside its
 * state: answers say which schema they come from, and the projector re-projects the objects whose
 * recorded digest differs from the schema the cluster's stored OpenAPI gives now. States stored
 * before have none (null): they were folded with the bundled or deduced schema, and the projector
 * treats them so. Adding a nullable column rewrites nothing.
 */
export class OwnershipStateSchema1795600000000 implements MigrationInterface {
  name = 'OwnershipStateSchema1795600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ownership_states ADD COLUMN schema jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ownership_states DROP COLUMN schema`);
  }
}
