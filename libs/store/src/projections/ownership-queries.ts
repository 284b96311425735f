import type { DataSource } from 'typeorm';
import {
  defaultSchemaResolver,
  eventsUpTo,
  explainField,
  fieldHistory,
  fieldOwners,
  findings,
  foldObjectOwnership,
  managerFields,
  managerIndex,
  ownershipTree,
  snapshotFromVersion,
  ownershipSnapshotOf,
  apiVersionOf,
  decodeOwnedFields,
  decodeOwnershipState,
  type AsOf,
  type EncodedOwnedFields,
  type EncodedOwnershipState,
  type FieldExplanationView,
  type FieldHistoryView,
  type FieldOwnersView,
  type FieldTransition,
  type Finding,
  type FindingType,
  type ManagerFieldsFilter,
  type ManagerObjectFields,
  type ManagerSummary,
  type ObjectFilter,
  type ObjectListItem,
  type ObjectOwnershipState,
  type ObservedEvent,
  type OwnershipNode,
  type OwnershipSnapshot,
  type OwnershipVersion,
  type SchemaResolver,
} from '../../../audit/src/index.js';
import { EventReader } from '../events/event-reader.js';
import { managedFieldsEntry, ObservedEventLoader, rebuildObject } from '../events/observed-event.loader.js';
import { decodeParsedBody, type BodyEncoding } from '../ingest/body.util.js';
import { preparedQuery } from '../database/prepared-query.js';
import { transitionFromRow, type TransitionRow } from './transition-row.js';
import { decodeCursor, encodeCursor, isString, pageOf, type Page } from './cursor.util.js';
import { StoreQueryError } from './store-query.error.js';

const ACTIVE = `(SELECT active FROM projection_generations WHERE projection = 'ownership')`;

/** `at=` as SQL: `[seq or null, time or null]`. */
const atParams = (at?: AsOf): [string | null, string | null] => (!at ? [null, null] : at.kind === 'seq' ? [at.seq, null] : [null, at.time]);

interface ObjectRow {
  object_id: string; cluster: string; uid: string; api_group: string; api_version: string; kind: string;
  namespace: string | null; name: string; last_seq: string; last_at: Date; deleted_then: boolean;
}

interface VersionRow {
  cluster: string; uid: string; api_group: string; api_version: string; kind: string; namespace: string | null; name: string;
  projected_seq: string; seq: string | null; prefix: boolean; deleted: boolean | null; fold_required: boolean | null; fields: EncodedOwnedFields | null;
  resource_version: string | null; observed_at: Date | null; managed_fields_times: (string | null)[] | null;
  /** The body chain up to the event: `[encoding, full body or patch]`, oldest first. */
  body: [BodyEncoding, unknown][] | null;
  managed_fields: Record<string, unknown>[] | null;
}

/** Summary of one manager across the cluster(s). */
export type ManagerListItem = Omit<ManagerSummary, 'objects'>;

/**
 * The read side of the ownership projections: every `/v1` query. Without `at=` answers come from the
 * projection tables of the active generation; with `at=` the object's events up to that moment are
 * folded again through the audit lib (the projection is never the truth, the events are).
 */
export class OwnershipQueries {
  private readonly reader: EventReader;
  private readonly loader: ObservedEventLoader;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schemaResolver: SchemaResolver = defaultSchemaResolver,
  ) {
    this.reader = new EventReader(dataSource);
    this.loader = new ObservedEventLoader(dataSource);
  }

  /** `GET /v1/objects`: objects in id order. As of `at`, objects first seen later are left out and `deleted` is as of then. */
  async listObjects(filter: ObjectFilter, at: AsOf | undefined, cursor: string | undefined, limit: number): Promise<Page<ObjectListItem>> {
    const after = decodeCursor('objects', cursor, isString);
    const [atSeq, atTime] = atParams(at);
    // Identity columns only: the jsonb state (with the object's body) is not read for a list.
    const rows: ObjectRow[] = await this.dataSource.query(
      `SELECT s.object_id, s.cluster, s.uid, s.api_group, s.api_version, s.kind, s.namespace, s.name, s.last_seq::text AS last_seq, s.last_at,
              s.deleted AND ($9::bigint IS NULL OR s.last_seq <= $9::bigint) AND ($10::timestamptz IS NULL OR s.last_at <= $10::timestamptz) AS deleted_then
       FROM ownership_states s
       WHERE s.generation = ${ACTIVE}
         AND ($1::text IS NULL OR s.cluster = $1) AND ($2::text IS NULL OR s.api_group = $2) AND ($3::text IS NULL OR s.api_version = $3)
         AND ($4::text IS NULL OR s.kind = $4) AND ($5::text IS NULL OR s.namespace = $5) AND ($6::text IS NULL OR s.name = $6)
         AND ($7::text IS NULL OR EXISTS (SELECT 1 FROM manager_objects m WHERE m.generation = s.generation AND m.object_id = s.object_id AND m.manager = $7))
         AND ($8::text IS NULL OR s.object_id > $8)
         AND ($9::bigint IS NULL OR s.first_seq <= $9::bigint) AND ($10::timestamptz IS NULL OR s.first_at <= $10::timestamptz)
       ORDER BY s.object_id
       LIMIT $11`,
      [filter.cluster ?? null, filter.group ?? null, filter.version ?? null, filter.kind ?? null, filter.namespace ?? null, filter.name ?? null,
        filter.manager ?? null, after ?? null, atSeq, atTime, limit + 1],
    );
    const items = rows.slice(0, limit).map((r) => ({
      id: r.object_id, cluster: r.cluster, uid: r.uid, group: r.api_group, version: r.api_version, kind: r.kind,
      namespace: r.namespace, name: r.name, deleted: r.deleted_then, lastSeq: r.last_seq, lastAt: r.last_at.toISOString(),
    }));
    return { items, nextCursor: rows.length > limit ? encodeCursor('objects', items[items.length - 1]!.id) : null };
  }

  /** The object's state now (from the projection) or as of `at` (folded from its events). */
  async state(objectId: string, at?: AsOf): Promise<ObjectOwnershipState> {
    if (!at) {
      const rows: { state: EncodedOwnershipState }[] = await this.dataSource.query(
        `SELECT state FROM ownership_states WHERE generation = ${ACTIVE} AND object_id = $1`,
        [objectId],
      );
      if (!rows[0]) throw notFound(objectId);
      return decodeOwnershipState(rows[0].state);
    }
    const { state } = foldObjectOwnership(await this.events(objectId, at), this.schemaResolver);
    if (!state) throw notFound(objectId, at);
    return state;
  }

  /** The object's events up to `at` (all of them without), oldest first. */
  async events(objectId: string, at?: AsOf): Promise<ObservedEvent[]> {
    if (!/^\d{1,19}$/.test(objectId)) throw notFound(objectId);
    const stored = await this.reader.objectHistory(objectId, at?.kind === 'seq' ? at.seq : undefined);
    const events = eventsUpTo(await this.loader.load(stored), at);
    if (events.length === 0) throw notFound(objectId, at);
    return events;
  }

  /**
   * The object as an owner read sees it: now (the projection) or as of `at` from the ownership
   * version in force then and the object's latest event up to it, its body rebuilt from its patch
   * chain and its managedFields from their blobs — one query, whatever the length of its history.
   * Folds the events instead where versions cannot answer exactly: `at` past what is projected, an
   * unreadable latest event, a time whose events are not a prefix of the object's history, or a
   * generation built before versions existed.
   */
  async snapshot(objectId: string, at?: AsOf): Promise<OwnershipSnapshot> {
    if (!at) return ownershipSnapshotOf(await this.state(objectId));
    if (!/^\d{1,19}$/.test(objectId)) throw notFound(objectId);
    const target = at.kind === 'seq' ? `e.seq <= $2::bigint` : `date_trunc('milliseconds', e.observed_at) <= $3::timestamptz`;
    const usable = `v.fields IS NOT NULL AND NOT v.fold_required AND NOT v.deleted AND t.seq <= s.last_seq`;
    const rows = await preparedQuery<VersionRow>(
      this.dataSource,
      `ownership-snapshot-at-${at.kind}`,
      `SELECT s.cluster, s.uid, s.api_group, s.api_version, s.kind, s.namespace, s.name, s.last_seq::text AS projected_seq,
              t.seq::text AS seq, t.prefix, v.deleted, v.fold_required, v.fields,
              ev.resource_version, ev.observed_at, ev.managed_fields_times, body.parts AS body, mf.entries AS managed_fields
       FROM ownership_states s
       CROSS JOIN LATERAL (
         SELECT max(e.seq) FILTER (WHERE ${target}) AS seq,
                -- the events up to a time are every event up to one sequence only when no earlier one is later
                coalesce(min(e.seq) FILTER (WHERE NOT (${target})) > max(e.seq) FILTER (WHERE ${target}), true) AS prefix
         FROM events e WHERE e.object_id = $1::bigint AND ($2::bigint IS NULL OR e.seq <= $2::bigint OR $3::timestamptz IS NOT NULL)
       ) t
       LEFT JOIN LATERAL (
         SELECT v.deleted, v.fold_required, v.fields FROM ownership_versions v
         WHERE v.generation = s.generation AND v.object_id = s.object_id AND v.seq <= t.seq
         ORDER BY v.seq DESC LIMIT 1
       ) v ON true
       LEFT JOIN LATERAL (
         SELECT e.resource_version, e.observed_at, e.managed_fields_times, e.managed_fields_hash FROM events e
         WHERE e.object_id = $1::bigint AND e.seq = t.seq
       ) ev ON true
       LEFT JOIN LATERAL (
         -- blobs by key, one at a time (scalar subqueries): a prepared statement's generic plan must not hash-join the blob store
         SELECT json_agg(json_build_array(e.body_encoding, (SELECT convert_from(b.bytes, 'UTF8')::json FROM blobs b WHERE b.hash = e.body_hash)) ORDER BY e.seq) AS parts
         FROM events e
         WHERE e.object_id = $1::bigint AND e.seq <= t.seq
           AND e.seq >= (SELECT max(f.seq) FROM events f WHERE f.object_id = $1::bigint AND f.seq <= t.seq AND f.body_encoding = 'full')
       ) body ON ${usable}
       LEFT JOIN LATERAL (
         SELECT coalesce(json_agg((SELECT convert_from(entry.bytes, 'UTF8')::json FROM blobs entry WHERE entry.hash = decode(l.hash, 'hex')) ORDER BY l.ord), '[]') AS entries
         FROM blobs list
         CROSS JOIN LATERAL json_array_elements_text(convert_from(list.bytes, 'UTF8')::json) WITH ORDINALITY AS l(hash, ord)
         WHERE list.hash = ev.managed_fields_hash
       ) mf ON ${usable}
       WHERE s.generation = ${ACTIVE} AND s.object_id = $1::text`,
      [objectId, ...atParams(at.kind === 'time' ? { ...at, time: new Date(at.ms).toISOString() } : at)],
    );
    const r = rows[0];
    if (r && r.seq === null) throw notFound(objectId, at);
    if (!r || !r.prefix || r.fields === null || r.fold_required || BigInt(r.seq!) > BigInt(r.projected_seq)) return ownershipSnapshotOf(await this.state(objectId, at));
    const version: OwnershipVersion = { objectId, seq: r.seq!, deleted: r.deleted!, fields: decodeOwnedFields(r.fields), marks: [], foldRequired: false };
    const object = r.deleted
      ? null
      : rebuildObject(
          decodeParsedBody(r.body!.map(([encoding, doc]) => ({ encoding, doc }))),
          r.resource_version!,
          r.managed_fields!.map((entry, i) => managedFieldsEntry(entry, r.managed_fields_times![i] ?? null)),
        );
    return snapshotFromVersion(
      {
        objectId, cluster: r.cluster, uid: r.uid, group: r.api_group, version: r.api_version, apiVersion: apiVersionOf(r.api_group, r.api_version),
        kind: r.kind, namespace: r.namespace, name: r.name,
      },
      version,
      { seq: r.seq!, at: r.observed_at!.toISOString(), object },
    );
  }

  async ownership(objectId: string, at?: AsOf): Promise<{ state: OwnershipSnapshot; tree: OwnershipNode }> {
    const state = await this.snapshot(objectId, at);
    return { state, tree: ownershipTree(state) };
  }

  async fieldOwners(objectId: string, path: string, at?: AsOf): Promise<FieldOwnersView> {
    return fieldOwners(await this.snapshot(objectId, at), path, this.schemaResolver);
  }

  async fieldHistory(objectId: string, path: string, at?: AsOf): Promise<FieldHistoryView> {
    return fieldHistory(await this.events(objectId, at), path, this.schemaResolver);
  }

  async explain(objectId: string, path: string, at?: AsOf): Promise<FieldExplanationView> {
    return explainField(await this.events(objectId, at), path, this.schemaResolver);
  }

  /** `GET /v1/objects/{id}/transitions`: stored transitions, newest first. */
  async transitions(objectId: string, at: AsOf | undefined, cursor: string | undefined, limit: number): Promise<Page<FieldTransition>> {
    const before = decodeCursor('transitions', cursor, (v): v is [string, number] => Array.isArray(v) && v.length === 2 && isString(v[0]) && /^\d+$/.test(v[0]) && Number.isInteger(v[1]));
    await this.mustExist(objectId);
    const [atSeq, atTime] = atParams(at);
    const rows: TransitionRow[] = await this.dataSource.query(
      `SELECT t.object_id, t.seq::text AS seq, t.ordinal, t.at, t.type, t.path, t.fields_v1_path, t.manager, t.operation, t.subresource, t.transition
       FROM field_transitions t
       WHERE t.generation = ${ACTIVE} AND t.object_id = $1
         AND ($2::bigint IS NULL OR (t.seq, t.ordinal) < ($2::bigint, $3::integer))
         AND ($4::bigint IS NULL OR t.seq <= $4::bigint) AND ($5::timestamptz IS NULL OR t.at <= $5::timestamptz)
       ORDER BY t.seq DESC, t.ordinal DESC -- the columns (bigint), not the text aliases
       LIMIT $6`,
      [objectId, before?.[0] ?? null, before?.[1] ?? 0, atSeq, atTime, limit + 1],
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(transitionFromRow), nextCursor: rows.length > limit && last ? encodeCursor('transitions', [last.seq, last.ordinal]) : null };
  }

  /** 404 for an object the projection does not know. */
  private async mustExist(objectId: string): Promise<void> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM ownership_states WHERE generation = ${ACTIVE} AND object_id = $1`, [objectId]);
    if (rows.length === 0) throw notFound(objectId);
  }

  /** `GET /v1/managers`: every manager with what it owns, by name. */
  async managers(at: AsOf | undefined, cursor: string | undefined, limit: number): Promise<Page<ManagerListItem>> {
    if (at) return pageOf('managers', managerIndex(await this.statesAt(at, {})).map(({ objects: _o, ...m }) => m), cursor, limit);
    const after = decodeCursor('managers', cursor, isString);
    const rows: { manager: string }[] = await this.dataSource.query(
      `SELECT DISTINCT manager FROM manager_objects WHERE generation = ${ACTIVE} AND ($1::text IS NULL OR manager > $1) ORDER BY manager LIMIT $2`,
      [after ?? null, limit + 1],
    );
    const names = rows.slice(0, limit).map((r) => r.manager);
    const states = await this.statesWhere(`EXISTS (SELECT 1 FROM manager_objects m WHERE m.generation = s.generation AND m.object_id = s.object_id AND m.manager = ANY($1::text[]))`, [names]);
    const byName = new Map(managerIndex(states).map(({ objects: _o, ...m }) => [m.manager, m]));
    const items = names.map((n) => byName.get(n)).filter((m): m is ManagerListItem => m !== undefined);
    return { items, nextCursor: rows.length > limit ? encodeCursor('managers', names[names.length - 1]!) : null };
  }

  /** `GET /v1/managers/{name}/fields`: the fields a manager owns, object by object. */
  async managerFields(name: string, filter: ManagerFieldsFilter, at: AsOf | undefined, cursor: string | undefined, limit: number): Promise<Page<ManagerObjectFields>> {
    const states = at
      ? await this.statesAt(at, filter)
      : await this.statesWhere(
          `EXISTS (SELECT 1 FROM manager_objects m WHERE m.generation = s.generation AND m.object_id = s.object_id AND m.manager = $1)
           AND ($2::text IS NULL OR s.cluster = $2) AND ($3::text IS NULL OR s.kind = $3) AND ($4::text IS NULL OR s.namespace = $4)`,
          [name, filter.cluster ?? null, filter.kind ?? null, filter.namespace ?? null],
        );
    return pageOf('manager-fields', managerFields(states, name, filter), cursor, limit);
  }

  /** `GET /v1/findings`: cluster-wide findings over every object's state (now or as of `at`). */
  async findings(types: readonly FindingType[] | undefined, since: AsOf | undefined, at: AsOf | undefined, cursor: string | undefined, limit: number): Promise<Page<Finding>> {
    const states = at ? await this.statesAt(at, {}) : await this.statesWhere('TRUE', []);
    const options = { ...(types && types.length > 0 ? { types } : {}), ...(since ? { since } : {}) };
    return pageOf('findings', findings(states, options), cursor, limit);
  }

  /** The latest live state of the object a manifest names (for `simulate/apply`), if tracked. */
  async liveObject(cluster: string, group: string, kind: string, namespace: string | null, name: string): Promise<ObjectOwnershipState | undefined> {
    const rows: { state: EncodedOwnershipState }[] = await this.dataSource.query(
      `SELECT state FROM ownership_states
       WHERE generation = ${ACTIVE} AND cluster = $1 AND api_group = $2 AND kind = $3 AND name = $4 AND NOT deleted
         AND (namespace IS NULL OR namespace = coalesce($5, 'default'))
       ORDER BY last_seq DESC LIMIT 1`,
      [cluster, group, kind, name, namespace],
    );
    return rows[0] && decodeOwnershipState(rows[0].state);
  }

  private async statesWhere(where: string, params: unknown[]): Promise<ObjectOwnershipState[]> {
    const rows: { state: EncodedOwnershipState }[] = await this.dataSource.query(
      `SELECT s.state FROM ownership_states s WHERE s.generation = ${ACTIVE} AND ${where} ORDER BY s.object_id`,
      params,
    );
    return rows.map((r) => decodeOwnershipState(r.state));
  }

  /** Every object's state as of `at`, folded from its events (costly: one fold per object seen by then). */
  private async statesAt(at: AsOf, filter: ManagerFieldsFilter): Promise<ObjectOwnershipState[]> {
    const [atSeq, atTime] = atParams(at);
    const rows: { object_id: string }[] = await this.dataSource.query(
      `SELECT object_id FROM ownership_states
       WHERE generation = ${ACTIVE} AND ($1::bigint IS NULL OR first_seq <= $1::bigint) AND ($2::timestamptz IS NULL OR first_at <= $2::timestamptz)
         AND ($3::text IS NULL OR cluster = $3) AND ($4::text IS NULL OR kind = $4) AND ($5::text IS NULL OR namespace = $5)
       ORDER BY object_id`,
      [atSeq, atTime, filter.cluster ?? null, filter.kind ?? null, filter.namespace ?? null],
    );
    const states: ObjectOwnershipState[] = [];
    for (const r of rows) states.push(await this.state(r.object_id, at));
    return states;
  }
}

function notFound(objectId: string, at?: AsOf): StoreQueryError {
  const when = !at ? '' : at.kind === 'seq' ? ` at sequence ${at.seq}` : ` at ${at.time}`;
  return new StoreQueryError('object-not-found', `no object with id "${objectId}"${when}`, 'id');
}
