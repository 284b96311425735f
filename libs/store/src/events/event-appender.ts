import type { DataSource, QueryRunner } from 'typeorm';
import type { KeyObject } from 'node:crypto';
import { resolveSensitiveHashKey, type CaptureConfig } from '../../../config/src/index.js';
import { errorCodeOf, type Observation, type WatchCheckpoint } from '../../../common/src/index.js';
import {
  compareSeq, decideAppend, nextTip, FoldAtAppendError,
  type AppendTimeProjection, type AppendTimeProjectionResult, type AppendTransactionTables, type ObjectTip, type ObservedEvent, type SchemaResolver,
} from '../../../audit/src/index.js';
import { inTransaction } from '../database/transaction.util.js';
import { blobOf, type Blob } from '../ingest/managed-fields.util.js';
import { decodeBodyChain, encodeBody, type Body } from '../ingest/body.util.js';
import { decodePatchOps, encodePatchOps, type PatchOpDigest } from '../ingest/change-paths.util.js';
import { activeStates, PostgresOwnershipProjectionStore } from '../projections/ownership-projection.store.js';
import { managedFieldsEntry, observedEventOf, rebuildObject } from './observed-event.loader.js';
import { prepareObservation, type PreparedObservation } from '../ingest/prepare-observation.js';
import { packBytes } from '../ingest/packed-bytes.util.js';
import { readBlobTexts } from './blob-texts.js';
import { HASH_BYTES, LOCK_OBJECTS_AND_RECORD_SEEN, WRITE_BATCH } from './append-batch.sql.js';
import { WatchPositionRepository } from '../watch/watch-position.repository.js';

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
  /** What folding the stored events in the append's transaction did (`null`: nothing was stored, or appends do not fold). */
  readonly projection: AppendTimeProjectionResult | null;
}

interface Tip {
  readonly objectId: string;
  readonly cluster: string;
  readonly uid: string;
  lastSeq: string | null;
  fieldsHash: Buffer | null;
  valuesHash: Buffer | null;
  /** The object's last full body, which patches are made against (parsed, and its JSON as stored), and the hash of its blob. */
  snapshot: { readonly body: Body; readonly json: string } | null;
  snapshotHash: Buffer | null;
  /** The object's newest stored event before this batch. */
  readonly previousSeq: string | null;
  sinceSnapshot: number;
  /** The operations of the object's last event's patch (none where it is a snapshot; `null`: not known). */
  lastPatchOps: PatchOpDigest[] | null;
  deletedAt: Date | null;
  touched: boolean;
  /** Seen for the first time: its row is inserted, tip included, by the write (its id is drawn already). */
  readonly created: boolean;
  /** What this batch saw of the object's identity and times (written with the tip). */
  readonly identity: {
    clusterId: number; group: string; apiVersion: string; kind: string; resource: string; namespace: string; name: string; first: string; last: string;
  };
}

interface EventRow {
  readonly tip: Tip;
  readonly p: PreparedObservation;
  readonly bodyHash: Buffer;
  readonly bodyEncoding: 'full' | 'snapshot-patch';
  readonly bodyJson: string;
  /** The summary of a patch's paths (`patchPathsOf`), null for a snapshot. */
  readonly patchPaths: bigint | null;
  /** The summary of the paths whose value can differ from the event before's (`events.change_paths`). */
  readonly changePaths: bigint;
  /** The snapshot a patch was made against. */
  readonly snapshotJson: string | null;
}

/** A stored event as the write returns it. */
interface WrittenEvent {
  readonly object_id: string;
  readonly seq: string;
  readonly resource_version: string;
  readonly observed_at: Date;
}

/**
 * The events the write stored, as the projections fold them: byte for byte what the log walk's
 * loader rebuilds from the stored rows (bodies decoded from the stored JSON, managedFields from the
 * entry blobs and times, seq and time as Postgres returned them); the fold sorts them by seq.
 */
function observedEvents(rows: readonly EventRow[], written: readonly WrittenEvent[]): ObservedEvent[] {
  const stored = new Map(written.map((w) => [`${w.object_id}\u0000${w.resource_version}`, w]));
  // Each entry blob parsed once, as the loader does: events sharing an entry share its document (the engine parses its FieldsV1 once).
  const entries = new Map<string, Record<string, unknown>>();
  const entryOf = (b: Blob): Record<string, unknown> => {
    const key = b.hash.toString('latin1');
    let entry = entries.get(key);
    if (entry === undefined) entries.set(key, (entry = JSON.parse(b.json) as Record<string, unknown>));
    return entry;
  };
  return rows.map((r) => {
    const w = stored.get(`${r.tip.objectId}\u0000${r.p.observation.object.metadata.resourceVersion}`)!;
    const body =
      r.bodyEncoding === 'full'
        ? (JSON.parse(r.bodyJson) as Body)
        : decodeBodyChain([{ encoding: 'full', json: r.snapshotJson! }, { encoding: 'snapshot-patch', json: r.bodyJson }], (i) => i === 1)[1]!;
    const mf = r.p.managedFields;
    const managedFields = mf.entries.map((b, i) => managedFieldsEntry(entryOf(b), mf.times[i] ?? null));
    const o = r.p.observation;
    const id = r.tip.identity;
    return observedEventOf(
      {
        seq: String(w.seq), cluster: r.tip.cluster, uid: r.tip.uid, objectId: r.tip.objectId, group: id.group, version: id.apiVersion, kind: id.kind,
        namespace: id.namespace, name: id.name, resourceVersion: o.object.metadata.resourceVersion, observedAt: w.observed_at, eventType: o.type, source: o.source,
      },
      rebuildObject(body, o.object.metadata.resourceVersion, managedFields),
    );
  });
}

const snapshotOf = (json: string) => ({ body: JSON.parse(json) as Body, json });

const objectKey = (cluster: string, uid: string) => `${cluster}\u0000${uid}`;

/**
 * A concurrent batch created one of this batch's new objects after this batch read its objects:
 * the insert of the row fails on the unique (cluster, uid); the batch runs again and finds the row.
 */
const createdConcurrently = (e: unknown): boolean =>
  errorCodeOf(e) === '23505' && (e as { constraint?: unknown }).constraint === 'uq_objects_cluster_uid';

/** What the domain's append decision needs of a tip. */
const tipOf = (t: Tip): ObjectTip => ({ fieldsHash: t.fieldsHash, valuesHash: t.valuesHash, hasSnapshot: t.snapshot !== null, eventsSinceSnapshot: t.sinceSnapshot });

/**
 * Appends a batch of observations in one transaction: idempotent on (cluster, uid, resourceVersion),
 * time-only changes counted but not stored, blobs content-addressed, bodies as patches against the
 * object's last full snapshot, whose hash the object row keeps. What to store is the audit lib's
 * `decideAppend`; this executes it. Concurrent appends touching the same object serialize on its row lock.
 */
export class EventAppender {
  private readonly clusterIds = new Map<string, number>();
  private readonly positions: WatchPositionRepository;
  /** Sensitive values are hashed again here (idempotent), so nothing unredacted reaches the database. */
  private readonly hashKey: KeyObject;

  constructor(
    private readonly dataSource: DataSource,
    private readonly capture: CaptureConfig,
    /** The audit lib's use case that folds the stored events into the projections in the same transaction; `null`: the log walk folds every event. */
    private readonly projection: AppendTimeProjection | null,
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
    const resolve = prepared.length > 0 && this.projection ? await this.projection.resolver() : null;
    const run = (fold: SchemaResolver | null) =>
      inTransaction(
        this.dataSource,
        async (q) => {
          const r = prepared.length > 0 ? await this.appendIn(q, prepared, clusterIds, fold) : { stored: 0, unchanged: 0, duplicate: 0, objects: [], newObservedAt: [], projection: null };
          if (checkpoint) await this.positions.write(q, checkpoint);
          return r;
        },
        { retryIf: createdConcurrently },
      );
    let result: Awaited<ReturnType<typeof run>>;
    try {
      result = await run(resolve);
    } catch (e) {
      if (!(e instanceof FoldAtAppendError)) throw e;
      // Stored again without folding: the log walk folds these events.
      const r = await run(null);
      result = { ...r, projection: { folded: 0, left: r.objects.length, error: e.cause } };
    }
    const committed = Date.now();
    const { newObservedAt, ...counts } = result;
    return { ...counts, lagsSeconds: newObservedAt.map((t) => (committed - t) / 1000) };
  }

  private async appendIn(q: QueryRunner, prepared: readonly PreparedObservation[], clusterIds: Map<string, number>, resolve: SchemaResolver | null) {
    const { tips, fresh } = await this.lockObjects(q, prepared, clusterIds);

    let unchanged = 0;
    const blobs = new Map<string, Blob>();
    const rows: EventRow[] = [];
    const newObservedAt: number[] = [];
    for (const p of prepared) {
      const m = p.observation.object.metadata;
      const tip = tips.get(objectKey(p.observation.cluster, m.uid))!;
      // A key repeated inside the batch counts once: the first takes it.
      if (!fresh.delete(`${tip.objectId}\u0000${m.resourceVersion}`)) continue; // duplicate
      newObservedAt.push(Date.parse(p.observation.observedAt));
      const digest = { type: p.observation.type, fieldsHash: p.managedFields.list.hash, valuesHash: p.valuesHash };
      const current = tipOf(tip);
      const decision = decideAppend(current, digest, this.capture.bodySnapshotEvery);
      if (!decision.store) {
        unchanged++;
        continue;
      }
      // No value before the object's first event, nor in a deletion or after one: every path changes.
      const gone = p.observation.type === 'DELETED' || tip.deletedAt !== null;
      const encoded = encodeBody(tip.snapshot?.body ?? null, p.body, decision.body === 'full', gone ? null : tip.lastPatchOps);
      const bodyBlob = blobOf(encoded.json);
      // latin1 keys: a cheap 1:1 string of the hash bytes (hex costs twice the characters).
      for (const b of p.managedFields.entries) blobs.set(b.hash.toString('latin1'), b);
      blobs.set(p.managedFields.list.hash.toString('latin1'), p.managedFields.list);
      blobs.set(bodyBlob.hash.toString('latin1'), bodyBlob);
      rows.push({ tip, p, bodyHash: bodyBlob.hash, bodyEncoding: encoded.encoding, bodyJson: encoded.json, patchPaths: encoded.paths, changePaths: encoded.changePaths, snapshotJson: tip.snapshot?.json ?? null });
      // encodeBody may still store a body whole (a patch that cannot carry it): the tip follows what was written.
      const next = nextTip(current, digest, encoded.encoding === 'full' ? 'full' : 'patch');
      tip.fieldsHash = p.managedFields.list.hash;
      tip.valuesHash = p.valuesHash;
      if (encoded.encoding === 'full') {
        tip.snapshot = { body: p.body, json: encoded.json };
        tip.snapshotHash = bodyBlob.hash;
      }
      tip.sinceSnapshot = next.eventsSinceSnapshot;
      tip.lastPatchOps = encoded.ops;
      if (p.observation.type === 'DELETED') tip.deletedAt ??= new Date(p.observation.observedAt);
      tip.touched = true;
    }

    const written = await this.write(q, [...blobs.values()], rows, [...tips.values()]);
    const touched = [...tips.values()].filter((t) => t.touched);
    const projection =
      this.projection && resolve
        ? await this.projection.project(this.tablesIn(q), resolve, () => observedEvents(rows, written), new Map(touched.map((t) => [t.objectId, t.previousSeq])))
        : null;
    return {
      stored: rows.length,
      unchanged,
      duplicate: prepared.length - newObservedAt.length,
      objects: touched.map((t) => ({ objectId: t.objectId, cluster: t.cluster, uid: t.uid, lastSeq: t.lastSeq! })),
      newObservedAt,
      projection,
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
   * Locks every existing object row of the batch (a new object gets its id; its row is inserted by
   * the write), reads its tip and records the batch's idempotency keys, in one statement. Returns the tips and the keys that were new
   * ("objectId\0resourceVersion"). The row lock serializes batches per object.
   */
  private async lockObjects(
    q: QueryRunner,
    prepared: readonly PreparedObservation[],
    clusterIds: Map<string, number>,
  ): Promise<{ tips: Map<string, Tip>; fresh: Set<string> }> {
    const latest = new Map<string, { p: PreparedObservation; first: string; last: string }>();
    // The first observation of each (object, resourceVersion): the one whose time the key records.
    const keys = new Map<string, PreparedObservation>();
    for (const p of prepared) {
      const k = objectKey(p.observation.cluster, p.observation.object.metadata.uid);
      const seen = latest.get(k);
      const t = p.observation.observedAt;
      if (!seen) latest.set(k, { p, first: t, last: t });
      else latest.set(k, { p, first: seen.first < t ? seen.first : t, last: seen.last > t ? seen.last : t });
      const key = `${k}\u0000${p.observation.object.metadata.resourceVersion}`;
      if (!keys.has(key)) keys.set(key, p);
    }
    const clusterNames = new Map([...clusterIds].map(([n, id]) => [id, n]));
    const tips = new Map<string, Tip>();
    const fresh = new Set<string>();
    const wanted = [...latest.keys()].sort();
    const objectCols: unknown[][] = Array.from({ length: 10 }, () => []);
    for (const k of wanted) {
      const { p, first, last } = latest.get(k)!;
      const o = p.observation;
      const values = [clusterIds.get(o.cluster), o.object.metadata.uid, o.resource.group, o.resource.version, o.resource.kind,
        o.resource.resource, o.object.metadata.namespace ?? '', o.object.metadata.name, first, last];
      values.forEach((v, i) => objectCols[i]!.push(v));
    }
    const keyCols: unknown[][] = [[], [], [], []];
    for (const p of keys.values()) {
      const o = p.observation;
      [clusterIds.get(o.cluster), o.object.metadata.uid, o.object.metadata.resourceVersion, o.observedAt].forEach((v, i) => keyCols[i]!.push(v));
    }
    const rows: {
      id: string; cluster_id: number; uid: string; api_group: string; kind: string; last_seq: string | null; last_fields_hash: Buffer | null; last_values_hash: Buffer | null;
      snapshot_hash: Buffer | null; snapshot: string | null; events_since_snapshot: number; last_patch_ops: Buffer | null; deleted_at: Date | null; created: boolean; fresh: string[] | null;
    }[] = await q.query(LOCK_OBJECTS_AND_RECORD_SEEN, [...objectCols, ...keyCols]);
    for (const r of rows) {
      const cluster = clusterNames.get(r.cluster_id)!;
      const k = objectKey(cluster, r.uid);
      const { p, first, last } = latest.get(k)!;
      const o = p.observation;
      const objectId = String(r.id);
      tips.set(k, {
        objectId, cluster, uid: r.uid, lastSeq: r.last_seq, fieldsHash: r.last_fields_hash,
        valuesHash: r.last_values_hash, snapshot: r.snapshot !== null ? snapshotOf(r.snapshot) : null, snapshotHash: r.snapshot_hash, previousSeq: r.last_seq,
        sinceSnapshot: r.events_since_snapshot, lastPatchOps: decodePatchOps(r.last_patch_ops, r.last_seq), deletedAt: r.deleted_at, touched: false, created: r.created,
        identity: {
          // Group and kind as the row stores them (a new row stores the observation's): what the log's readers give the events.
          clusterId: r.cluster_id, group: r.api_group, apiVersion: o.resource.version, kind: r.kind, resource: o.resource.resource,
          namespace: o.object.metadata.namespace ?? '', name: o.object.metadata.name, first, last,
        },
      });
      for (const rv of r.fresh ?? []) fresh.add(`${objectId}\u0000${rv}`);
    }
    if (tips.size !== wanted.length) throw new Error(`objects neither locked nor created: ${wanted.length - tips.size}`);
    await this.readSnapshotsCommittedMeanwhile(q, [...tips.values()]);
    return { tips, fresh };
  }

  /**
   * A batch that waited for an object's lock sees the row a concurrent batch committed, but not the
   * snapshot blob that batch wrote (the statement's view is older than the lock): those snapshots
   * are read again, in a statement of their own. One still missing leaves the next body whole.
   */
  private async readSnapshotsCommittedMeanwhile(q: QueryRunner, tips: readonly Tip[]): Promise<void> {
    const missing = tips.filter((t) => t.snapshotHash !== null && t.snapshot === null);
    if (missing.length === 0) return;
    const texts = await readBlobTexts(q, missing.map((t) => t.snapshotHash!.toString('hex')));
    for (const t of missing) {
      const json = texts.get(t.snapshotHash!.toString('hex'));
      if (json !== undefined) t.snapshot = snapshotOf(json);
    }
  }

  /** The projection tables as the append's transaction `q` sees them (it holds the objects' rows). */
  private tablesIn(q: QueryRunner): AppendTransactionTables {
    return {
      activeStates: (ids) => activeStates(q, ids),
      save: (generation, batch) => new PostgresOwnershipProjectionStore(this.dataSource, generation, null, q).save(batch),
    };
  }

  /** Blobs, events and tips in one statement; sets each touched tip's lastSeq; returns the events as stored. */
  private async write(q: QueryRunner, blobs: Blob[], rows: readonly EventRow[], tips: readonly Tip[]): Promise<WrittenEvent[]> {
    blobs.sort((a, b) => a.hash.compare(b.hash));
    const blobBytes = packBytes(blobs.map((b) => b.json));
    const written: WrittenEvent[] = await q.query(WRITE_BATCH, [
      Buffer.concat(blobs.map((b) => b.hash)),
      blobBytes.bytes,
      blobBytes.starts,
      blobBytes.lengths,
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
      tips.map((t) => t.objectId),
      tips.map((t) => t.touched),
      // Untouched tips keep their columns (the CASEs of the statement): zeros hold their places in the packed hashes.
      Buffer.concat(tips.map((t) => (t.touched ? t.fieldsHash! : NO_HASH))),
      Buffer.concat(tips.map((t) => (t.touched ? t.valuesHash! : NO_HASH))),
      Buffer.concat(tips.map((t) => (t.touched ? t.snapshotHash! : NO_HASH))),
      tips.map((t) => t.sinceSnapshot),
      tips.map((t) => t.deletedAt),
      tips.map((t) => t.identity.apiVersion),
      tips.map((t) => t.identity.namespace),
      tips.map((t) => t.identity.name),
      tips.map((t) => t.identity.first),
      tips.map((t) => t.identity.last),
      tips.map((t) => t.created),
      tips.map((t) => t.identity.clusterId),
      tips.map((t) => t.uid),
      tips.map((t) => t.identity.group),
      tips.map((t) => t.identity.kind),
      tips.map((t) => t.identity.resource),
      rows.map((r) => (r.patchPaths === null ? null : String(r.patchPaths))),
      rows.map((r) => String(r.changePaths)),
      // Written after the tip's new last sequence (by the statement): an earlier version's append leaves them behind it.
      tips.map((t) => (t.touched ? encodePatchOps(t.lastPatchOps) : null)),
    ]);
    const newest = new Map<string, string>();
    for (const r of written) {
      const seen = newest.get(String(r.object_id));
      if (seen === undefined || compareSeq(String(r.seq), seen) > 0) newest.set(String(r.object_id), String(r.seq));
    }
    for (const t of tips) if (t.touched) t.lastSeq = newest.get(t.objectId)!;
    return written;
  }
}
