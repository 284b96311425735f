import type { Queryable } from '../database/queryable.js';
import { preparedOrPlainQuery } from '../database/prepared-query.js';
import { decodeBody, type Body, type BodyEncoding } from '../ingest/body.util.js';
import { ACTIVE_GENERATION } from '../projections/active-generation.sql.js';
import { START_POSITION, type EventPosition } from './event-position.js';
import { readBlobTexts } from './blob-texts.js';

/** One event as read from the log. Hashes are hex; the managedFields can be resolved through {@link EventReader.managedFieldsOf}. */
export interface StoredEvent {
  readonly seq: string;
  readonly xid: string;
  /** The store's object id (`objects.id`): the object id of the projections and the API. */
  readonly objectId: string;
  readonly cluster: string;
  /** API group (`''` for the core group) and version of the object's resource. */
  readonly group: string;
  readonly version: string;
  readonly uid: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly resourceVersion: string;
  readonly apiVersion: string;
  readonly eventType: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly source: 'watch' | 'relist' | 'gap-fill';
  readonly observedAt: Date;
  readonly managedFieldsHash: string;
  readonly managedFieldsTimes: readonly (string | null)[];
  readonly bodyEncoding: BodyEncoding;
}

const EVENT_COLUMNS = `e.seq, e.xid::text AS xid, o.id::text AS object_id, c.name AS cluster, o.api_group, o.api_version AS version, o.uid, o.kind, o.namespace, o.name, e.resource_version,
         e.api_version, e.event_type, e.source, e.observed_at, encode(e.managed_fields_hash, 'hex') AS mf,
         e.managed_fields_times, e.body_encoding`;

const SELECT_EVENT = `
  SELECT ${EVENT_COLUMNS}
  FROM events e JOIN objects o ON o.id = e.object_id JOIN clusters c ON c.id = o.cluster_id`;

/** A stored event with its body as stored: the JSON text of a snapshot or of a patch (see {@link StoredEvent.bodyEncoding}). */
export type StoredEventWithBody = StoredEvent & { readonly bodyJson: string };

const SELECT_EVENT_WITH_BODY = `
  SELECT ${EVENT_COLUMNS}, convert_from(b.bytes, 'UTF8') AS body_json
  FROM events e LEFT JOIN blobs b ON b.hash = e.body_hash JOIN objects o ON o.id = e.object_id JOIN clusters c ON c.id = o.cluster_id`;

interface Row {
  seq: string; xid: string; object_id: string; cluster: string; api_group: string; version: string; uid: string; kind: string; namespace: string; name: string;
  resource_version: string; api_version: string; event_type: StoredEvent['eventType']; source: StoredEvent['source'];
  observed_at: Date; mf: string; managed_fields_times: (string | null)[]; body_encoding: BodyEncoding;
}

/** SQL: the checkpoint of the ownership projection that queries read (no row: nothing projected yet). */
const ACTIVE_CHECKPOINT = `SELECT last_xid::text AS xid, last_seq::text AS seq FROM projection_checkpoints WHERE projection = 'ownership@' || ${ACTIVE_GENERATION}`;

const toEvent = (r: Row): StoredEvent => ({
  seq: r.seq, xid: r.xid, objectId: r.object_id, cluster: r.cluster, group: r.api_group, version: r.version, uid: r.uid, kind: r.kind, namespace: r.namespace, name: r.name,
  resourceVersion: r.resource_version, apiVersion: r.api_version, eventType: r.event_type, source: r.source,
  observedAt: r.observed_at, managedFieldsHash: r.mf, managedFieldsTimes: r.managed_fields_times, bodyEncoding: r.body_encoding,
});

/**
 * SQL: the events `e` after the position (`$1` xid, `$2` seq) in (xid, seq) order, at most `$3`,
 * stopping before the oldest transaction still in progress: an event that an older transaction has
 * yet to commit cannot be jumped over.
 */
const AFTER_POSITION = `WHERE (e.xid, e.seq) > ($1::xid8, $2::bigint) AND e.xid < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY e.xid, e.seq
       LIMIT $3`;

/**
 * SQL: event `e`'s body as a fold rebuilds it, in bytes as stored (`body_bytes`): a whole body its
 * own size, a snapshot patch its object `o`'s latest snapshot (undercounting the older patches of an
 * object that shrank), a legacy `json-patch` its own bytes; read from the blobs' headers (no body is
 * fetched).
 */
const BODY_BYTES = `coalesce((SELECT octet_length(b.bytes) FROM blobs b
                    WHERE b.hash = CASE WHEN e.body_encoding = 'snapshot-patch' THEN o.snapshot_hash ELSE e.body_hash END), 0) AS body_bytes`;

/**
 * SQL: the rows of `events` (a select with a `body_bytes` column, see {@link BODY_BYTES}) in the
 * order of the columns `order`, cut before the row whose bodies would take the running sum past
 * `maxBytes` (an SQL expression); the first row always comes. Each row also tells how many rows
 * `events` gave (`read`), so a caller can tell a page cut by the bound from the end of the rows.
 */
const cutByBodyBytes = (events: string, order: readonly string[], maxBytes: string): string => {
  const ordered = (alias: string) => order.map((c) => `${alias}.${c}`).join(', ');
  return `SELECT * FROM (
         SELECT p.*, sum(p.body_bytes) OVER w AS through, row_number() OVER w AS n, count(*) OVER () AS read
         FROM (${events}) p
         WINDOW w AS (ORDER BY ${ordered('p')})
       ) t
       WHERE t.through <= ${maxBytes} OR t.n = 1
       ORDER BY ${ordered('t')}`;
};

/** Reads the event log: by global position (never skipping a late commit), per object, and bodies. */
export class EventReader {
  constructor(private readonly dataSource: Queryable) {}

  /**
   * Events after `position` in (xid, seq) order, stopping before the oldest transaction still in
   * progress: an event that an older transaction has yet to commit cannot be jumped over.
   */
  async readAfter(position: EventPosition, limit: number): Promise<StoredEvent[]> {
    const rows: Row[] = await this.dataSource.query(
      `${SELECT_EVENT} ${AFTER_POSITION}`,
      [position.xid, position.seq, limit],
    );
    return rows.map(toEvent);
  }

  /**
   * {@link readAfter}, cut before the event whose body would take the bodies a fold rebuilds past
   * `maxBodyBytes` (the first event always comes, however large; each body estimated as
   * {@link BODY_BYTES} says). A page of 500 objects of 1.5 MB each would otherwise be rebuilt into
   * gigabytes at once.
   */
  async readAfterWithin(position: EventPosition, limit: number, maxBodyBytes: number): Promise<StoredEvent[]> {
    const rows: Row[] = await this.dataSource.query(
      cutByBodyBytes(
        `SELECT ${EVENT_COLUMNS}, e.xid AS xid_order, ${BODY_BYTES}
         FROM events e JOIN objects o ON o.id = e.object_id JOIN clusters c ON c.id = o.cluster_id
         ${AFTER_POSITION}`,
        ['xid_order', 'seq'], '$4::bigint',
      ),
      [position.xid, position.seq, limit, maxBodyBytes],
    );
    return rows.map(toEvent);
  }

  /**
   * {@link readAfter}, up to `ceiling` (inclusive): a position every event at or before which is
   * final, such as a projection checkpoint (see {@link ProjectedEventLog}).
   */
  async readUpTo(position: EventPosition, ceiling: EventPosition, limit: number): Promise<StoredEvent[]> {
    const rows: Row[] = await this.dataSource.query(
      `${SELECT_EVENT}
       WHERE (e.xid, e.seq) > ($1::xid8, $2::bigint)
         AND (e.xid, e.seq) <= ($3::xid8, $4::bigint)
       ORDER BY e.xid, e.seq
       LIMIT $5`,
      [position.xid, position.seq, ceiling.xid, ceiling.seq, limit],
    );
    return rows.map(toEvent);
  }

  /** The position of the event with sequence `seq`, or null if there is none. */
  async positionOf(seq: string): Promise<EventPosition | null> {
    const rows: { xid: string }[] = await this.dataSource.query(`SELECT xid::text AS xid FROM events WHERE seq = $1::bigint`, [seq]);
    return rows[0] ? { xid: rows[0].xid, seq } : null;
  }

  /** The position after the last event readable now (readers starting there see only what comes next). */
  async tail(): Promise<EventPosition> {
    const rows: { xid: string; seq: string }[] = await this.dataSource.query(
      // Qualified names: ORDER BY a bare "seq" would sort the text alias.
      `SELECT e.xid::text AS xid, e.seq::text AS seq FROM events e
       WHERE e.xid < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY e.xid DESC, e.seq DESC LIMIT 1`,
    );
    return rows[0] ?? { xid: '0', seq: '0' };
  }

  /**
   * The position of the last event the ownership projection that queries read has folded (its
   * checkpoint; the start of the log before anything is projected). The checkpoint only passes final
   * events: no event at or before it can commit later.
   */
  async projectedPosition(): Promise<EventPosition> {
    const rows: { xid: string; seq: string }[] = await this.dataSource.query(ACTIVE_CHECKPOINT);
    return rows[0] ?? START_POSITION;
  }

  /** Every event of one object (stream `cluster:uid`), oldest first. */
  async history(cluster: string, uid: string): Promise<StoredEvent[]> {
    const rows: Row[] = await this.dataSource.query(
      `${SELECT_EVENT} WHERE c.name = $1 AND o.uid = $2 ORDER BY e.seq`,
      [cluster, uid],
    );
    return rows.map(toEvent);
  }

  /** Every event of one object by the store's object id, oldest first; up to `maxSeq` (inclusive) when given. */
  async objectHistory(objectId: string, maxSeq?: string): Promise<StoredEvent[]> {
    // Prepared (through a data source): the partitioned log plans in several times the time this runs.
    const rows = await preparedOrPlainQuery<Row>(
      this.dataSource,
      'object-history',
      `${SELECT_EVENT} WHERE e.object_id = $1::bigint AND ($2::bigint IS NULL OR e.seq <= $2::bigint) ORDER BY e.seq`,
      [objectId, maxSeq ?? null],
    );
    return rows.map(toEvent);
  }

  /**
   * The events of the objects `objectIds` after `after` (an object id and a sequence; `null`: from
   * the start), object by object in id order, each object's oldest first: at most `limit`, cut as
   * {@link readAfterWithin} cuts (before the event whose body would take the bodies a fold rebuilds
   * past `maxBodyBytes`; the first always comes). A page of histories that have no bound of their
   * own (it may end inside one: the next page goes on from its last event); `last` when no event of
   * these objects comes after it (no further read needed).
   */
  async objectsHistoryPage(
    objectIds: readonly string[], after: { readonly objectId: string; readonly seq: string } | null, limit: number, maxBodyBytes: number,
  ): Promise<{ events: StoredEvent[]; last: boolean }> {
    // One ordered part of the page: the events `where` selects, in `order`, with their object's identity.
    const part = (where: string, order: string) => `(SELECT ${EVENT_COLUMNS}, e.object_id AS object_order, ${BODY_BYTES}
            FROM events e JOIN objects o ON o.id = e.object_id JOIN clusters c ON c.id = o.cluster_id
            WHERE ${where}
            ORDER BY ${order} LIMIT $4)`;
    const rows = await preparedOrPlainQuery<Row & { read: string }>(
      this.dataSource,
      'objects-history-page',
      // The rest of the object the page before ended in, then the later objects: as one row comparison
      // ((object_id, seq) > …), Postgres estimated it from the object id alone and sorted every event
      // left in the chunk for each page (55 ms a page inside a history of 20,000 events, against 1 ms).
      cutByBodyBytes(
        `SELECT x.* FROM (
           ${part('e.object_id = $2::bigint AND e.seq > $3::bigint', 'e.seq')}
           UNION ALL
           ${part('e.object_id = ANY ($1::bigint[]) AND e.object_id > $2::bigint', 'e.object_id, e.seq')}
         ) x
         ORDER BY x.object_order, x.seq
         LIMIT $4`,
        ['object_order', 'seq'], '$5::bigint',
      ),
      [objectIds, after?.objectId ?? '-1', after?.seq ?? '-1', limit, maxBodyBytes],
    );
    // Fewer events than the limit, none of them cut by the bound: the histories end here.
    const last = rows.length === 0 || (Number(rows[0]!.read) < limit && rows.length === Number(rows[0]!.read));
    return { events: rows.map(toEvent), last };
  }

  /**
   * The events of one object up to `maxSeq` (inclusive), oldest first, from sequence `from.seq` on,
   * or with `from.before` from the last event before it that is not a deletion (from it where there
   * is none): where explaining an object's field starts to diff its snapshots. Each with its body as
   * stored, after the snapshot the first one's body is built on (`chain`: pass it and `from` to
   * `ObservedEventLoader.loadChain`), in one statement.
   */
  async objectChainFrom(objectId: string, from: { readonly seq: string; readonly before: boolean }, maxSeq: string): Promise<{ chain: StoredEventWithBody[]; from: number }> {
    const rows = await preparedOrPlainQuery<Row & { body_json: string | null; wanted: boolean }>(
      this.dataSource,
      'object-chain-from',
      `WITH start AS (
         SELECT coalesce(CASE WHEN $4::boolean THEN (SELECT max(s.seq) FROM events s WHERE s.object_id = $1::bigint AND s.seq < $3::bigint AND s.event_type <> 'DELETED') END, $3::bigint) AS seq
       ),
       snapshot AS (SELECT max(s.seq) AS seq FROM events s, start WHERE s.object_id = $1::bigint AND s.seq <= start.seq AND s.body_encoding = 'full')
       SELECT ${EVENT_COLUMNS}, convert_from(b.bytes, 'UTF8') AS body_json, e.seq >= start.seq AS wanted
       FROM start, snapshot, events e LEFT JOIN blobs b ON b.hash = e.body_hash JOIN objects o ON o.id = e.object_id JOIN clusters c ON c.id = o.cluster_id
       WHERE e.object_id = $1::bigint AND e.seq <= $2::bigint AND e.seq >= coalesce(snapshot.seq, start.seq)
         -- before the first event asked for, only what later bodies are built on (a snapshot patch needs only its snapshot)
         AND (e.seq >= start.seq OR e.body_encoding <> 'snapshot-patch')
       ORDER BY e.seq`,
      [objectId, maxSeq, from.seq, from.before],
    );
    const chain = rows.map((r) => {
      // A missing blob is an error, as the loader's (an event is never left out of an answer).
      if (r.body_json === null) throw new Error(`no body for event ${r.seq}`);
      return Object.assign(toEvent(r), { bodyJson: r.body_json });
    });
    return { chain, from: Math.max(0, rows.findIndex((r) => r.wanted)) };
  }

  /**
   * {@link objectHistory} with each event's body as stored (a snapshot or a patch, not rebuilt:
   * see `pathValuesAlongChain` and `ObservedEventLoader.loadChain`), in the same statement.
   */
  async objectHistoryWithBodies(objectId: string, maxSeq?: string): Promise<StoredEventWithBody[]> {
    const rows = await preparedOrPlainQuery<Row & { body_json: string | null }>(
      this.dataSource,
      'object-history-bodies',
      `${SELECT_EVENT_WITH_BODY} WHERE e.object_id = $1::bigint AND ($2::bigint IS NULL OR e.seq <= $2::bigint) ORDER BY e.seq`,
      [objectId, maxSeq ?? null],
    );
    return rows.map((r) => {
      // A missing blob is an error, as the loader's (an event is never left out of an answer).
      if (r.body_json === null) throw new Error(`no body for event ${r.seq}`);
      return Object.assign(toEvent(r), { bodyJson: r.body_json });
    });
  }

  /** The managedFields of an event, rebuilt from its blobs (with the entries' time stamps). */
  async managedFieldsOf(event: StoredEvent): Promise<Record<string, unknown>[]> {
    const list = JSON.parse(await this.blobText(event.managedFieldsHash)) as string[];
    return Promise.all(
      list.map(async (h, i) => {
        const entry = JSON.parse(await this.blobText(h)) as Record<string, unknown>;
        const time = event.managedFieldsTimes[i];
        return time ? { ...entry, time } : entry;
      }),
    );
  }

  /** The stored body (as redacted, without managedFields and resourceVersion) at event `seq`. */
  async bodyAt(seq: string): Promise<Body> {
    const rows: { body_encoding: BodyEncoding; json: string }[] = await this.dataSource.query(
      `WITH target AS (SELECT object_id FROM events WHERE seq = $1),
            snapshot AS (SELECT max(e.seq) AS seq FROM events e, target t
                         WHERE e.object_id = t.object_id AND e.seq <= $1 AND e.body_encoding = 'full')
       SELECT e.body_encoding, convert_from(b.bytes, 'UTF8') AS json
       FROM events e JOIN target t ON e.object_id = t.object_id, snapshot s, blobs b
       WHERE e.seq BETWEEN s.seq AND $1 AND b.hash = e.body_hash
         -- a snapshot patch needs only its snapshot: the others between are skipped
         AND (e.body_encoding <> 'snapshot-patch' OR e.seq = $1)
       ORDER BY e.seq`,
      [seq],
    );
    if (rows.length === 0) throw new Error(`no event with seq ${seq}`);
    return decodeBody(rows.map((r) => ({ encoding: r.body_encoding, json: r.json })));
  }

  private async blobText(hex: string): Promise<string> {
    const text = (await readBlobTexts(this.dataSource, [hex])).get(hex);
    if (text === undefined) throw new Error(`missing blob ${hex}`);
    return text;
  }
}
