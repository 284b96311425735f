import type { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillManagerIdentities } from '../libs/store/src/projections/manager-identities.backfill.js';

/**
 * Each row of the manager index (`manager_objects`, one per manager and object) also holds the
 * manager's identities in the object (`[operation, apiVersion, subresource]`) and its owned paths
 * counted once per identity, so `GET /v1/managers` sums and merges rows instead of decoding every
 * state. Filled from the states already stored (one pass, each state decoded once).
 */
export class ManagerIdentities1795950000000 implements MigrationInterface {
  name = 'ManagerIdentities1795950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE manager_objects ADD COLUMN identities json, ADD COLUMN identity_field_count integer`);
    await backfillManagerIdentities(q);
    // A row no stored state gives (an index out of step with its states) is stale: the states are the truth.
    await q.query(`DELETE FROM manager_objects WHERE identities IS NULL`);
    await q.query(`ALTER TABLE manager_objects ALTER COLUMN identities SET NOT NULL, ALTER COLUMN identity_field_count SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE manager_objects DROP COLUMN identities, DROP COLUMN identity_field_count`);
  }
}
