import { fixedSlice, packedSlice } from '../ingest/packed-bytes.util.js';

/**
 * The two statements of an ingest batch (besides BEGIN and COMMIT): one reads and locks, the decision
 * is made in between, one writes. Each is a chain of data-modifying CTEs, so a batch costs four round
 * trips instead of nine (the round trips, on ordered lanes, were most of a batch's time).
 */

/** Every hash the batch carries (blobs, managedFields lists, values, bodies) is a SHA-256. */
export const HASH_BYTES = 32;

/**
 * Locks the batch's existing objects (in id order, so concurrent batches never deadlock), draws an
 * id for each new one, and records the idempotency keys. One row per object: its group and kind as
 * stored (what the log's readers give its events), its tip (`created`:
 * new, its row is inserted whole by {@link WRITE_BATCH}), and `fresh`, the resourceVersions recorded
 * now (the others were seen before: redelivery). The keys of a new object reference a row that does
 * not exist yet: their foreign key is checked at commit.
 *
 * $1–$10: the objects, sorted (cluster id, uid, group, version, kind, resource, namespace, name,
 * first and last seen); $11–$14: the keys (cluster id, uid, resourceVersion, observed at).
 *
 * An object a concurrent transaction creates after this statement's snapshot looks new here; the
 * write's insert then fails on `uq_objects_cluster_uid` (after waiting for that transaction), and
 * the caller runs the batch again (the next attempt finds and locks the row).
 */
export const LOCK_OBJECTS_AND_RECORD_SEEN = `
WITH k AS (
  SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::timestamptz[])
    WITH ORDINALITY AS k(c, u, g, v, kd, r, ns, n, f, l, i)
), locked AS (
  -- The snapshot (the body patches are made against) as text: JSON.parse takes it as is (a bytea comes back as hex to decode first).
  SELECT o.id, o.cluster_id, o.uid, o.api_group, o.kind, o.last_seq, o.last_fields_hash, o.last_values_hash,
         o.snapshot_hash, convert_from(b.bytes, 'UTF8') AS snapshot, o.events_since_snapshot, o.last_patch_ops, o.deleted_at
  FROM objects o JOIN k ON o.cluster_id = k.c AND o.uid = k.u
    LEFT JOIN blobs b ON b.hash = o.snapshot_hash
  ORDER BY o.id
  FOR UPDATE OF o
), created AS (
  SELECT nextval(pg_get_serial_sequence('objects', 'id')) AS id, k.c AS cluster_id, k.u AS uid, k.g AS api_group, k.kd AS kind, NULL::bigint AS last_seq,
         NULL::bytea AS last_fields_hash, NULL::bytea AS last_values_hash, NULL::bytea AS snapshot_hash, NULL::text AS snapshot,
         0 AS events_since_snapshot, NULL::bytea AS last_patch_ops, NULL::timestamptz AS deleted_at
  FROM k
  WHERE NOT EXISTS (SELECT 1 FROM locked WHERE locked.cluster_id = k.c AND locked.uid = k.u)
  ORDER BY k.i
), tips AS (
  SELECT *, false AS created FROM locked UNION ALL SELECT *, true AS created FROM created
), seen AS (
  INSERT INTO observations_seen (object_id, resource_version, observed_at)
  SELECT t.id, s.rv, s.at
  FROM unnest($11::int[], $12::text[], $13::text[], $14::timestamptz[]) AS s(c, u, rv, at)
    JOIN tips t ON t.cluster_id = s.c AND t.uid = s.u
  ORDER BY t.id, s.rv
  ON CONFLICT DO NOTHING
  RETURNING object_id, resource_version
)
SELECT t.*, f.fresh
FROM tips t LEFT JOIN (SELECT object_id, array_agg(resource_version) AS fresh FROM seen GROUP BY object_id) f ON f.object_id = t.id`;

/**
 * Writes the batch: new blobs, the events (sequence values drawn in row order), one update per
 * existing object (identity and times; for objects with new events the tip, whose last_seq is the
 * object's highest new seq and whose snapshot_hash names the blob of its last full body) and one
 * insert per new object, its tip included (one row version). Returns every new event's object id,
 * resourceVersion, seq and observation time as stored (what the projections fold).
 *
 * Blobs $1 hashes (packed), $2 bytes (packed), $3 starts, $4 lengths. Events $5 object ids,
 * $6 resourceVersions, $7 api versions, $8 types, $9 sources, $10 observed at, $11 managedFields list
 * hashes (packed), $12 managedFields times, $13 values hashes (packed), $14 body hashes (packed),
 * $15 body encodings. Tips $16 ids, $17 touched, $18 fields hashes (packed; zeros where untouched),
 * $19 values hashes (same), $20 snapshot hashes (same), $21 events since snapshot, $22 deleted at,
 * $23 api versions, $24 namespaces, $25 names, $26 first, $27 last seen; for new objects also
 * $28 created, $29 cluster ids, $30 uids, $31 groups, $32 kinds, $33 resources. Events again: $34 the
 * summaries of their patches' paths (null for snapshots), $35 the summaries of the paths whose
 * values changed. Tips again: $36 the operations of the last event's patch (`encodePatchOps`;
 * written after the object's new last sequence, which the statement knows).
 */
export const WRITE_BATCH = `
WITH b AS (
  INSERT INTO blobs (hash, bytes)
  SELECT ${fixedSlice('$1::bytea', 'x.i', HASH_BYTES)}, ${packedSlice('$2::bytea', 'x.s', 'x.l')}
  FROM unnest($3::int[], $4::int[]) WITH ORDINALITY AS x(s, l, i)
  ORDER BY x.i
  ON CONFLICT (hash) DO NOTHING
), e AS (
  INSERT INTO events (object_id, resource_version, api_version, event_type, source, observed_at,
                      managed_fields_hash, managed_fields_times, values_hash, body_hash, body_encoding, patch_paths, change_paths)
  SELECT o, rv, av, et, s, oa, ${fixedSlice('$11::bytea', 'ord', HASH_BYTES)}, mt,
         ${fixedSlice('$13::bytea', 'ord', HASH_BYTES)}, ${fixedSlice('$14::bytea', 'ord', HASH_BYTES)}, be, pp, cp
  FROM unnest($5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[], $10::timestamptz[], $12::jsonb[], $15::text[], $34::bigint[], $35::bigint[])
    WITH ORDINALITY AS x(o, rv, av, et, s, oa, mt, be, pp, cp, ord)
  ORDER BY ord
  RETURNING object_id, seq, resource_version, observed_at
), m AS (
  SELECT object_id, max(seq) AS seq FROM e GROUP BY object_id
), u AS (
  SELECT * FROM unnest($16::bigint[], $17::bool[], $21::int[], $22::timestamptz[], $23::text[], $24::text[], $25::text[],
                       $26::timestamptz[], $27::timestamptz[], $28::bool[], $29::int[], $30::text[], $31::text[], $32::text[], $33::text[], $36::bytea[])
    WITH ORDINALITY AS u(id, touched, n_since, deleted_at, av, ns, n, f, l, created, c, uid, g, kd, r, ops, i)
), tip AS (
  UPDATE objects o SET
    api_version = u.av, namespace = u.ns, name = u.n,
    first_seen_at = LEAST(o.first_seen_at, u.f), last_seen_at = GREATEST(o.last_seen_at, u.l),
    last_seq = CASE WHEN u.touched THEN m.seq ELSE o.last_seq END,
    last_fields_hash = CASE WHEN u.touched THEN ${fixedSlice('$18::bytea', 'u.i', HASH_BYTES)} ELSE o.last_fields_hash END,
    last_values_hash = CASE WHEN u.touched THEN ${fixedSlice('$19::bytea', 'u.i', HASH_BYTES)} ELSE o.last_values_hash END,
    snapshot_hash = CASE WHEN u.touched THEN ${fixedSlice('$20::bytea', 'u.i', HASH_BYTES)} ELSE o.snapshot_hash END,
    events_since_snapshot = CASE WHEN u.touched THEN u.n_since ELSE o.events_since_snapshot END,
    last_patch_ops = CASE WHEN u.touched THEN int8send(m.seq) || u.ops ELSE o.last_patch_ops END,
    deleted_at = CASE WHEN u.touched THEN u.deleted_at ELSE o.deleted_at END
  FROM u LEFT JOIN m ON m.object_id = u.id
  WHERE o.id = u.id AND NOT u.created
), born AS (
  INSERT INTO objects (id, cluster_id, uid, api_group, api_version, kind, resource, namespace, name, first_seen_at, last_seen_at,
                       last_seq, last_fields_hash, last_values_hash, snapshot_hash, events_since_snapshot, last_patch_ops, deleted_at)
  OVERRIDING SYSTEM VALUE
  SELECT u.id, u.c, u.uid, u.g, u.av, u.kd, u.r, u.ns, u.n, u.f, u.l, m.seq,
         CASE WHEN u.touched THEN ${fixedSlice('$18::bytea', 'u.i', HASH_BYTES)} END,
         CASE WHEN u.touched THEN ${fixedSlice('$19::bytea', 'u.i', HASH_BYTES)} END,
         CASE WHEN u.touched THEN ${fixedSlice('$20::bytea', 'u.i', HASH_BYTES)} END,
         u.n_since, int8send(m.seq) || u.ops, u.deleted_at
  FROM u LEFT JOIN m ON m.object_id = u.id
  WHERE u.created
  ORDER BY u.i
)
SELECT object_id, seq, resource_version, observed_at FROM e`;
