import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `object_scopes`: every scope objects are tracked in (cluster, API group, resource, namespace, with
 * the kind of its objects), what RBAC grants aggregates by. `GET /v1/managers` and the other
 * aggregates read it for a caller without the cluster-wide grant: which scopes to ask the cluster
 * about (before, a `DISTINCT` over every object: 10–21 ms at 20,000 objects, a request), and, for a
 * caller who sees most scopes, which objects to take away from every object's totals, in the
 * statement that reads them (so a scope first tracked meanwhile is taken away too).
 *
 * A row is added in the statement that inserts the first object of its scope (a statement-level
 * trigger on `objects`), or that moves an object into it (a row-level trigger whose condition holds
 * only when one of those columns changes: never, for a Kubernetes object, whose uid keeps its
 * namespace and resource, and whose row keeps the first group it was seen under). Rows are not
 * removed when a scope's last object is deleted: an empty scope takes nothing away.
 *
 * Up: the table and its triggers, then the scopes of the stored objects, with `objects` locked
 * against writes in between.
 */
export class ObjectScopes1796900000000 implements MigrationInterface {
  name = 'ObjectScopes1796900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE objects IN SHARE ROW EXCLUSIVE MODE`);
    await q.query(`
      CREATE TABLE object_scopes (
        cluster_id integer NOT NULL,
        api_group text NOT NULL,
        resource text NOT NULL,
        namespace text NOT NULL,
        kind text NOT NULL,
        CONSTRAINT pk_object_scopes PRIMARY KEY (cluster_id, api_group, resource, namespace, kind),
        CONSTRAINT fk_object_scopes_cluster FOREIGN KEY (cluster_id) REFERENCES clusters (id)
      )`);
    await q.query(`
      CREATE FUNCTION object_scopes_follow() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        -- In key order: two batches that both bring new scopes take them in the same order (no deadlock).
        INSERT INTO object_scopes (cluster_id, api_group, resource, namespace, kind)
        SELECT DISTINCT a.cluster_id, a.api_group, a.resource, a.namespace, a.kind FROM added a
        ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT DO NOTHING;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`CREATE TRIGGER object_scopes_on_insert AFTER INSERT ON objects
                   REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION object_scopes_follow()`);
    await q.query(`
      CREATE FUNCTION object_scopes_follow_row() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        INSERT INTO object_scopes (cluster_id, api_group, resource, namespace, kind)
        VALUES (NEW.cluster_id, NEW.api_group, NEW.resource, NEW.namespace, NEW.kind)
        ON CONFLICT DO NOTHING;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`CREATE TRIGGER object_scopes_on_move AFTER UPDATE ON objects FOR EACH ROW
                   WHEN (OLD.cluster_id IS DISTINCT FROM NEW.cluster_id OR OLD.api_group IS DISTINCT FROM NEW.api_group
                         OR OLD.resource IS DISTINCT FROM NEW.resource OR OLD.namespace IS DISTINCT FROM NEW.namespace OR OLD.kind IS DISTINCT FROM NEW.kind)
                   EXECUTE FUNCTION object_scopes_follow_row()`);
    await q.query(`
      INSERT INTO object_scopes (cluster_id, api_group, resource, namespace, kind)
      SELECT DISTINCT o.cluster_id, o.api_group, o.resource, o.namespace, o.kind FROM objects o`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER object_scopes_on_move ON objects`);
    await q.query(`DROP FUNCTION object_scopes_follow_row()`);
    await q.query(`DROP TRIGGER object_scopes_on_insert ON objects`);
    await q.query(`DROP FUNCTION object_scopes_follow()`);
    await q.query(`DROP TABLE object_scopes`);
  }
}
