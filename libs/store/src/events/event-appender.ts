import type { DataSource, QueryRunner } from 'typeorm';
import type { KeyObject } from 'node:crypto';
import { resolveSensitiveHashKey, type CaptureConfig } from '../../../config/src/index.js';
import type { Observation, WatchCheckpoint } from '../../../common/src/index.js';
import { decideAppend, nextTip, type ObjectTip } from '../../../audit/src/index.js';
import { inTransaction } from '../database/transaction.util.js';
import { blobOf, type Blob } from '../ingest/managed-fields.util.js';
import { encodeBody, type Body } from '../ingest/body.util.js';
import { prepareObservation, type PreparedObservation } from '../ingest/prepare-observation.js';
import { fixedSlice, packBytes, packedSlice } from '../ingest/packed-bytes.util.js';
import { WatchPositionRepository } from '../watch/watch-position.repository.js';

const HASH_BYTES = 32;
const NO_HASH = Buffer.alloc(HASH_BYTES);

/** An object touched by an append, with the global sequence of its newest stored event. */
export interface AffectedObject {
  readonly objectId: string;
  readonly cluster: string;
  readonly uid: string;
  readonly lastSeq: string;
}

export interface AppendResult {
  /** Stored as new events. */
  readonly stored: number;
  /** Same managed fields and tracked values as the object's last event: counted, not stored. */
  readonly unchanged: number;
  /** (cluster, uid, resourceVersion) already ingested: redelivery, a no-op. */
  readonly duplicate: number;
  readonly objects: readonly AffectedObject[];
  /** Seconds from observation to commit, one per new observation. */
  readonly lagsSeconds: readonly number[];
}

interface Tip {
  readonly objectId: string;
  readonly cluster: string;
  readonly uid: string;
  lastSeq: string | null;
  fieldsHash: Buffer | null;
  valuesHash: Buffer | null;
  body: Body | null;
  sinceSnapshot: number;
  deletedAt: Date | null;
  touched: boolean;
  /** What this batch saw of the object's identity and times (written with the tip). */
  readonly identity: { apiVersion: string; namespace: string; name: string; first: string; last: string };
}

interface EventRow {
  readonly tip: Tip;
  readonly p: PreparedObservation;
  readonly bodyHash: Buffer;
  readonly bodyEncoding: string;
}

const objectKey = (cluster: string, uid: string) => `${cluster}\u0000${uid}`;

/** What the domain's append decision needs of a tip. */
const tipOf = (t: Tip): ObjectTip => ({ fieldsHash: t.fieldsHash, valuesHash: t.valuesHash, hasBody: t.body !== null, eventsSinceSnapshot: t.sinceSnapshot });

/**
 * Appends a batch of observations in one transaction: idempotent on (cluster, uid, resourceVersion),
 * time-only changes counted but not stored, blobs content-addressed, bodies as patches between
 * periodic full snapshots (what to store is the audit lib's `decideAppend`; this executes it). Concurrent appends touching the same object serialize on its row lock.
 */
export class EventAppender {
  private readonly clusterIds = new Map<string, number>();
  private readonly positions: WatchPositionRepository;
  /** Sensitive values are hashed again here (idempotent), so nothing unredacted reaches the database. */
  private readonly hashKey: KeyObject;

  constructor(
    private readonly dataSource: DataSource,
    private readonly capture: CaptureConfig,
  ) {
    this.positions = new WatchPositionRepository(dataSource);
    this.hashKey = resolveSensitiveHashKey(capture.hashKey);
  }

  /**
   * Appends the observations and, in the same transaction, the watcher's `checkpoint` they end
   * (so a resume position never claims an observation that did not commit).
   */
  async append(observations: readonly Observation[], checkpoint?: WatchCheckpoint): Promise<AppendResult> {
    const prepared = observations.map((o) => prepareObservation(o, this.capture, this.hashKey));
    const clusterIds = await this.resolveClusters([...new Set(prepared.map((p) => p.observation.cluster))]);
    const result = await inTransaction(this.dataSource, async (q) => {
      const r = prepared.length > 0 ? await this.appendIn(q, prepared, clusterIds) : { stored: 0, unchanged: 0, duplicate: 0, objects: [], newObservedAt: [] };
      if (checkpoint) await this.positions.write(q, checkpoint);
      return r;
    });
    const committed = Date.now();
    const { newObservedAt, ...counts } = result;
    return { ...counts, lagsSeconds: newObservedAt.map((t) => (committed - t) / 1000) };
  }

  private async appendIn(q: QueryRunner, prepared: readonly PreparedObservation[], clusterIds: Map<string, number>) {
    const tips = await this.lockObjects(q, prepared, clusterIds);

    // Idempotency record; a key repeated inside the batch counts once.
    const firstOfKey = new Map<string, PreparedObservation>();
    for (const p of prepared) {
      const m = p.observation.object.metadata;
      const k = `${tips.get(objectKey(p.observation.cluster, m.uid))!.objectId}\u0000${m.resourceVersion}`;
      if (!firstOfKey.has(k)) firstOfKey.set(k, p);
    }
    const fresh = await this.recordSeen(q, firstOfKey);

    let unchanged = 0;
    const blobs = new Map<string, Blob>();
    const rows: EventRow[] = [];
    const newObservedAt: number[] = [];
    for (const p of prepared) {
      const m = p.observation.object.metadata;
      const tip = tips.get(objectKey(p.observation.cluster, m.uid))!;
      if (!fresh.delete(`${tip.objectId}\u0000${m.resourceVersion}`)) continue; // duplicate
      newObservedAt.push(Date.parse(p.observation.observedAt));
      const digest = { type: p.observation.type, fieldsHash: p.managedFields.list.hash, valuesHash: p.valuesHash };
      const current = tipOf(tip);
      const decision = decideAppend(current, digest, this.capture.bodySnapshotEvery);
      if (!decision.store) {
        unchanged++;
        continue;
      }
      const encoded = encodeBody(tip.body, p.body, decision.body === 'full');
      const bodyBlob = blobOf(encoded.json);
      // latin1 keys: a cheap 1:1 string of the hash bytes (hex costs twice the characters).
      for (const b of p.managedFields.entries) blobs.set(b.hash.toString('latin1'), b);
      blobs.set(p.managedFields.list.hash.toString('latin1'), p.managedFields.list);
      blobs.set(bodyBlob.hash.toString('latin1'), bodyBlob);
      rows.push({ tip, p, bodyHash: bodyBlob.hash, bodyEncoding: encoded.encoding });
      // encodeBody may still store a body whole (a patch that cannot carry it): the tip follows what was written.
      const next = nextTip(current, digest, encoded.encoding === 'full' ? 'full' : 'patch');
      tip.fieldsHash = p.managedFields.list.hash;
      tip.valuesHash = p.valuesHash;
      tip.body = p.body;
      tip.sinceSnapshot = next.eventsSinceSnapshot;
      if (p.observation.type === 'DELETED') tip.deletedAt ??= new Date(p.observation.observedAt);
      tip.touched = true;
    }

    await this.insertBlobs(q, [...blobs.values()]);
    await this.insertEvents(q, rows);
    await this.updateTips(q, [...tips.values()]);
    const touched = [...tips.values()].filter((t) => t.touched);
    return {
      stored: rows.length,
      unchanged,
      duplicate: prepared.length - newObservedAt.length,
      objects: touched.map((t) => ({ objectId: t.objectId, cluster: t.cluster, uid: t.uid, lastSeq: t.lastSeq! })),
      newObservedAt,
    };
  }

  /** Cluster ids, created on first sight in their own committed statement (so the cache never holds a rolled-back id). */
  private async resolveClusters(names: string[]): Promise<Map<string, number>> {
    const missing = names.filter((n) => !this.clusterIds.has(n)).sort();
    if (missing.length > 0) {
      await this.dataSource.query(`INSERT INTO clusters (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING`, [missing]);
      const rows: { id: number; name: string }[] = await this.dataSource.query(`SELECT id, name FROM clusters WHERE name = ANY($1::text[])`, [missing]);
      for (const r of rows) this.clusterIds.set(r.name, r.id);
    }
    return this.clusterIds;
  }

  /**
   * Creates the batch's new objects, then locks every object row of the batch (in id order, so
   * concurrent batches never deadlock) and reads its tip. The row lock serializes batches per object.
   */
  private async lockObjects(q: QueryRunner, prepared: readonly PreparedObservation[], clusterIds: Map<string, number>): Promise<Map<string, Tip>> {
    const latest = new Map<string, { p: PreparedObservation; first: string; last: string }>();
    for (const p of prepared) {
      const k = objectKey(p.observation.cluster, p.observation.object.metadata.uid);
      const seen = latest.get(k);
      const t = p.observation.observedAt;
      if (!seen) latest.set(k, { p, first: t, last: t });
      else latest.set(k, { p, first: seen.first < t ? seen.first : t, last: seen.last > t ? seen.last : t });
    }
    const keys = [...latest.keys()].sort();
    const cols: unknown[][] = Array.from({ length: 10 }, () => []);
    for (const k of keys) {
      const { p, first, last } = latest.get(k)!;
      const o = p.observation;
      const values = [clusterIds.get(o.cluster), o.object.metadata.uid, o.resource.group, o.resource.version, o.resource.kind,
        o.resource.resource, o.object.metadata.namespace ?? '', o.object.metadata.name, first, last];
      values.forEach((v, i) => cols[i]!.push(v));
    }
    await q.query(
      `INSERT INTO objects (cluster_id, uid, api_group, api_version, kind, resource, namespace, name, first_seen_at, last_seen_at)
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::timestamptz[])
       ON CONFLICT (cluster_id, uid) DO NOTHING`,
      cols,
    );
    const rows: {
      id: string; cluster_id: number; uid: string; last_seq: string | null; last_fields_hash: Buffer | null;
      last_values_hash: Buffer | null; tip_body: string | null; events_since_snapshot: number; deleted_at: Date | null;
    }[] = await q.query(
      // The tip body as text: JSON.parse takes it as is (a bytea comes back as hex to decode first).
      `SELECT o.id, o.cluster_id, o.uid, o.last_seq, o.last_fields_hash, o.last_values_hash,
              convert_from(o.tip_body, 'UTF8') AS tip_body, o.events_since_snapshot, o.deleted_at
       FROM objects o JOIN unnest($1::int[], $2::text[]) AS k(c, u) ON o.cluster_id = k.c AND o.uid = k.u
       ORDER BY o.id
       FOR UPDATE OF o`,
      [cols[0], cols[1]],
    );
    const clusterNames = new Map([...clusterIds].map(([n, id]) => [id, n]));
    const tips = new Map<string, Tip>();
    for (const r of rows) {
      const cluster = clusterNames.get(r.cluster_id)!;
      const k = objectKey(cluster, r.uid);
      const { p, first, last } = latest.get(k)!;
      tips.set(k, {
        objectId: String(r.id), cluster, uid: r.uid, lastSeq: r.last_seq, fieldsHash: r.last_fields_hash,
        valuesHash: r.last_values_hash, body: r.tip_body !== null ? (JSON.parse(r.tip_body) as Body) : null,
        sinceSnapshot: r.events_since_snapshot, deletedAt: r.deleted_at, touched: false,
        identity: { apiVersion: p.observation.resource.version, namespace: p.observation.object.metadata.namespace ?? '', name: p.observation.object.metadata.name, first, last },
      });
    }
    return tips;
  }

  /** Inserts the idempotency keys; returns those that were new ("objectId\0resourceVersion"). */
  private async recordSeen(q: QueryRunner, byKey: Map<string, PreparedObservation>): Promise<Set<string>> {
    const ids: string[] = [], rvs: string[] = [], ats: string[] = [];
    for (const [k, p] of [...byKey].sort(([a], [b]) => (a < b ? -1 : 1))) {
      ids.push(k.slice(0, k.indexOf('\u0000')));
      rvs.push(p.observation.object.metadata.resourceVersion);
      ats.push(p.observation.observedAt);
    }
    const rows: { object_id: string; resource_version: string }[] = await q.query(
      `INSERT INTO observations_seen (object_id, resource_version, observed_at)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::timestamptz[])
       ON CONFLICT DO NOTHING
       RETURNING object_id, resource_version`,
      [ids, rvs, ats],
    );
    return new Set(rows.map((r) => `${r.object_id}\u0000${r.resource_version}`));
  }

  private async insertBlobs(q: QueryRunner, blobs: Blob[]): Promise<void> {
    if (blobs.length === 0) return;
    blobs.sort((a, b) => a.hash.compare(b.hash));
    const bytes = packBytes(blobs.map((b) => b.json));
    await q.query(
      `INSERT INTO blobs (hash, bytes)
       SELECT ${fixedSlice('$1::bytea', 'x.i', HASH_BYTES)}, ${packedSlice('$2::bytea', 'x.s', 'x.l')}
       FROM unnest($3::int[], $4::int[]) WITH ORDINALITY AS x(s, l, i)
       ORDER BY x.i
       ON CONFLICT (hash) DO NOTHING`,
      [Buffer.concat(blobs.map((b) => b.hash)), bytes.bytes, bytes.starts, bytes.lengths],
    );
  }

  private async insertEvents(q: QueryRunner, rows: EventRow[]): Promise<void> {
    if (rows.length === 0) return;
    const returned: { seq: string }[] = await q.query(
      `INSERT INTO events (object_id, resource_version, api_version, event_type, source, observed_at,
                           managed_fields_hash, managed_fields_times, values_hash, body_hash, body_encoding)
       SELECT o, rv, av, et, s, oa, ${fixedSlice('$7::bytea', 'ord', HASH_BYTES)}, mt,
              ${fixedSlice('$9::bytea', 'ord', HASH_BYTES)}, ${fixedSlice('$10::bytea', 'ord', HASH_BYTES)}, be
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $8::jsonb[], $11::text[])
         WITH ORDINALITY AS x(o, rv, av, et, s, oa, mt, be, ord)
       ORDER BY ord
       RETURNING seq`,
      [
        rows.map((r) => r.tip.objectId),
        rows.map((r) => r.p.observation.object.metadata.resourceVersion),
        rows.map((r) => r.p.observation.object.apiVersion ?? r.p.observation.resource.version),
        rows.map((r) => r.p.observation.type),
        rows.map((r) => r.p.observation.source),
        rows.map((r) => r.p.observation.observedAt),
        Buffer.concat(rows.map((r) => r.p.managedFields.list.hash)),
        rows.map((r) => JSON.stringify(r.p.managedFields.times)),
        Buffer.concat(rows.map((r) => r.p.valuesHash)),
        Buffer.concat(rows.map((r) => r.bodyHash)),
        rows.map((r) => r.bodyEncoding),
      ],
    );
    // Sequence values are drawn in row order (ORDER BY ord), so the i-th smallest belongs to the i-th row.
    const seqs = returned.map((r) => BigInt(r.seq)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    rows.forEach((r, i) => (r.tip.lastSeq = String(seqs[i])));
  }

  /** One write per object and batch: identity, times and (for objects with new events) the tip. */
  private async updateTips(q: QueryRunner, tips: Tip[]): Promise<void> {
    if (tips.length === 0) return;
    const bodies = packBytes(tips.map((t) => (t.touched ? JSON.stringify(t.body) : null)));
    await q.query(
      `UPDATE objects o SET
         api_version = u.av, namespace = u.ns, name = u.n,
         first_seen_at = LEAST(o.first_seen_at, u.f), last_seen_at = GREATEST(o.last_seen_at, u.l),
         last_seq = CASE WHEN u.touched THEN u.seq ELSE o.last_seq END,
         last_fields_hash = CASE WHEN u.touched THEN ${fixedSlice('$4::bytea', 'u.i', HASH_BYTES)} ELSE o.last_fields_hash END,
         last_values_hash = CASE WHEN u.touched THEN ${fixedSlice('$5::bytea', 'u.i', HASH_BYTES)} ELSE o.last_values_hash END,
         tip_body = CASE WHEN u.touched THEN ${packedSlice('$6::bytea', 'u.bs', 'u.bl')} ELSE o.tip_body END,
         events_since_snapshot = CASE WHEN u.touched THEN u.n_since ELSE o.events_since_snapshot END,
         deleted_at = CASE WHEN u.touched THEN u.deleted_at ELSE o.deleted_at END
       FROM unnest($1::bigint[], $2::bool[], $3::bigint[], $14::int[], $15::int[], $7::int[], $8::timestamptz[],
                   $9::text[], $10::text[], $11::text[], $12::timestamptz[], $13::timestamptz[])
         WITH ORDINALITY AS u(id, touched, seq, bs, bl, n_since, deleted_at, av, ns, n, f, l, i)
       WHERE o.id = u.id`,
      [
        tips.map((t) => t.objectId),
        tips.map((t) => t.touched),
        tips.map((t) => (t.touched ? t.lastSeq : null)),
        // Untouched tips keep their columns (the CASEs above): zeros hold their places in the packed hashes.
        Buffer.concat(tips.map((t) => (t.touched ? t.fieldsHash! : NO_HASH))),
        Buffer.concat(tips.map((t) => (t.touched ? t.valuesHash! : NO_HASH))),
        bodies.bytes,
        tips.map((t) => t.sinceSnapshot),
        tips.map((t) => t.deletedAt),
        tips.map((t) => t.identity.apiVersion),
        tips.map((t) => t.identity.namespace),
        tips.map((t) => t.identity.name),
        tips.map((t) => t.identity.first),
        tips.map((t) => t.identity.last),
        bodies.starts,
        bodies.lengths,
      ],
    );
  }

}
