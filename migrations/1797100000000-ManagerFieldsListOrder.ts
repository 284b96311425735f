import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /v1/managers/{name}/fields` a page at a time without sorting every object of the manager: an
 * index of the states in the list's order (cluster, group, kind, namespace with '' for none, name,
 * id; each `COLLATE "C"`, code points, as the list sorts them). A page of a manager that owns many
 * objects walks the index and looks each object's index row up (`manager_objects`' key), stopping
 * after a page; one that owns few still reads its own rows and sorts them. The identity never
 * changes, so an update of a state stays in place (HOT) where it did.
 *
 * Up: the index (writes to the states wait while it is built). Down: dropped.
 */
export class ManagerFieldsListOrder1797100000000 implements MigrationInterface {
  name = 'ManagerFieldsListOrder1797100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX idx_ownership_states_list_order ON ownership_states (generation, cluster COLLATE "C", api_group COLLATE "C", kind COLLATE "C",
        (coalesce(namespace, '') COLLATE "C"), name COLLATE "C", object_id COLLATE "C")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_ownership_states_list_order`);
  }
}
