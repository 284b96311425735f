import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event store: clusters, objects (an object is its uid), the append-only events table
 * (partitioned by observation time), content-addressed blobs, the idempotency record of every
 * observation seen, and projection checkpoints.
 */
export class CreateEventStore1763726400000 implements MigrationInterface {
  name = 'CreateEventStore1763726400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE clusters (
        id integer GENERATED ALWAYS AS IDENTITY,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_clusters PRIMARY KEY (id),
        CONSTRAINT uq_clusters_name UNIQUE (name)
      )`);

    // The tip columns (last_*, tip_body, events_since_snapshot) cache the state of the object's last
    // stored event: they drive the time-only dedupe and the body diffs. They are derived, never the truth.
    // tip_body is the last body as JSON bytes (bytea, not jsonb: it is only ever read back whole).
    await q.query(`
      CREATE TABLE objects (
        id bigint GENERATED ALWAYS AS IDENTITY,
        cluster_id integer NOT NULL,
        uid text NOT NULL,
        api_group text NOT NULL,
        api_version text NOT NULL,
        kind text NOT NULL,
        resource text NOT NULL,
        namespace text NOT NULL,
        name text NOT NULL,
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        deleted_at timestamptz,
        last_seq bigint,
        last_fields_hash bytea,
        last_values_hash bytea,
        tip_body bytea,
        events_since_snapshot integer NOT NULL DEFAULT 0,
        CONSTRAINT pk_objects PRIMARY KEY (id),
        CONSTRAINT uq_objects_cluster_uid UNIQUE (cluster_id, uid),
        CONSTRAINT fk_objects_cluster FOREIGN KEY (cluster_id) REFERENCES clusters (id)
      )`);
    await q.query(`CREATE INDEX idx_objects_cluster_kind_namespace_name ON objects (cluster_id, kind, namespace, name)`);

    await q.query(`
      CREATE TABLE blobs (
        hash bytea NOT NULL,
        bytes bytea NOT NULL,
        CONSTRAINT pk_blobs PRIMARY KEY (hash),
        CONSTRAINT ck_blobs_hash_sha256 CHECK (octet_length(hash) = 32)
      )`);

    // Global order of events. A plain sequence (not an identity column) because the table is partitioned.
    await q.query(`CREATE SEQUENCE events_seq AS bigint`);
    await q.query(`
      CREATE TABLE events (
        seq bigint NOT NULL DEFAULT nextval('events_seq'),
        xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        object_id bigint NOT NULL,
        resource_version text NOT NULL,
        api_version text NOT NULL,
        event_type text NOT NULL,
        source text NOT NULL,
        observed_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        managed_fields_hash bytea NOT NULL,
        managed_fields_times jsonb NOT NULL,
        values_hash bytea NOT NULL,
        body_hash bytea NOT NULL,
        body_encoding text NOT NULL,
        CONSTRAINT pk_events PRIMARY KEY (seq, observed_at),
        CONSTRAINT fk_events_object FOREIGN KEY (object_id) REFERENCES objects (id),
        CONSTRAINT ck_events_event_type CHECK (event_type IN ('ADDED', 'MODIFIED', 'DELETED')),
        CONSTRAINT ck_events_source CHECK (source IN ('watch', 'relist', 'gap-fill')),
        CONSTRAINT ck_events_body_encoding CHECK (body_encoding IN ('full', 'json-patch'))
      ) PARTITION BY RANGE (observed_at)`);
    await q.query(`ALTER SEQUENCE events_seq OWNED BY events.seq`);
    await q.query(`CREATE INDEX idx_events_object_seq ON events (object_id, seq)`);
    // Readers by global position walk (xid, seq) behind the oldest open transaction.
    await q.query(`CREATE INDEX idx_events_xid_seq ON events (xid, seq)`);
    // Monthly partitions are created ahead by the maintenance job; this one catches anything outside them.
    await q.query(`CREATE TABLE events_default PARTITION OF events DEFAULT`);

    // Idempotency: every (object, resourceVersion) ingested, stored as an event or not.
    await q.query(`
      CREATE TABLE observations_seen (
        object_id bigint NOT NULL,
        resource_version text NOT NULL,
        observed_at timestamptz NOT NULL,
        CONSTRAINT pk_observations_seen PRIMARY KEY (object_id, resource_version),
        CONSTRAINT fk_observations_seen_object FOREIGN KEY (object_id) REFERENCES objects (id)
      )`);
    await q.query(`CREATE INDEX idx_observations_seen_observed_at ON observations_seen (observed_at)`);

    await q.query(`
      CREATE TABLE projection_checkpoints (
        projection text NOT NULL,
        last_xid xid8 NOT NULL,
        last_seq bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_projection_checkpoints PRIMARY KEY (projection)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE projection_checkpoints`);
    await q.query(`DROP TABLE observations_seen`);
    await q.query(`DROP TABLE events`);
    await q.query(`DROP TABLE blobs`);
    await q.query(`DROP TABLE objects`);
    await q.query(`DROP TABLE clusters`);
  }
}
