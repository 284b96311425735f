import type { DataSource } from 'typeorm';
import {
  eventsUpTo,
  explainField,
  baselineTransitions,
  explainChainStart,
  explainFieldOfProjected,
  resolveEventsPath,
  fieldHistory,
  fieldHistoryOfValues,
  valueAt,
  type EventFacts,
  type EventValue,
  type ResolvedPath,
  objectTransitions,
  type PlacedTransition,
  fieldOwners,
  compareFindings,
  fieldFindings,
  findings,
  foldObjectOwnership,
  managerFields,
  ManagerTotals,
  sortedIdentities,
  identityKey,
  type ManagerIdentity,
  ownershipTree,
  ownershipSnapshotOf,
  decodeOwnedFields,
  managerOwnsAField,
  type AsOf,
  type EncodedOwnedFields,
  type FieldExplanationView,
  type FieldHistoryView,
  type FieldOwnersView,
  type FieldTransition,
  type FieldFinding,
  type Finding,
  type FindingType,
  type ManagerFieldsFilter,
  type ManagerObjectFields,
  type ManagerSummary,
  type AccessScope,
  type ScopedView,
  type ObjectAccessIdentity,
  type ObjectFilter,
  type ObjectListItem,
  type ObjectOwnedFields,
  type ObjectListKey,
  objectListKey,
  compareObjectListKeys,
  type ObjectRef,
  type ObjectOwnershipState,
  type ObservedEvent,
  type Operation,
  type OwnedField,
  type OwnershipNode,
  type OwnershipSnapshot,
  type SchemaResolver,
  type SchemaUsed,
  apiVersionOf,
  eventsSchema,
  recordedSchema,
} from '../../../audit/src/index.js';
import { decodableJsonSql } from './decodable-json.sql.js';
import { SEQUENCE_CHECKPOINTS, TIME_CHECKPOINTS, versionSumsAt } from './manager-version-sums.sql.js';
import { notProjectedSeqsSql, notProjectedSql, someNotProjectedBefore } from './not-projected.sql.js';
import { compareStrings } from '../../../ssa-engine/src/index.js';
import { EventReader } from '../events/event-reader.js';
import { ObservedEventLoader, eventFactsOf } from '../events/observed-event.loader.js';
import type { StoredEvent, StoredEventWithBody } from '../events/event-reader.js';
import { pathValuesAlongChain } from '../ingest/body-values.util.js';
import { readSnapshotFromVersions } from './snapshot-from-versions.query.js';
import { projectedExplanation, projectedFieldHistory } from './path-value-changes.query.js';
import { preparedQuery } from '../database/prepared-query.js';
import { VERSION_ANSWERS, ownsAFieldSql, versionAtParams, versionInForceSql } from './version-in-force.sql.js';
import { ACTIVE_GENERATION as ACTIVE } from './active-generation.sql.js';
import { SELECT_TRANSITION, transitionFromRow, type TransitionRow } from './transition-row.js';
import { decodeCursor, encodeCursor, isCursorOf, isString, pageOf, type Page } from './cursor.util.js';
import { StoreQueryError } from './store-query.error.js';
import { STATE_COLUMNS, stateFromRow, type StateRow } from './state-row.js';
import { recordedSchemaSql } from './schema-choices.js';
import { inScopes, outsideScopes, seenBy } from './access-scope.sql.js';
import { StoredSchemaCatalog, type SchemaCatalogSource } from '../schemas/stored-schema-catalog.js';

/** How old the stored schemas an answer uses may be. */
const SCHEMA_MAX_AGE_MS = 2_000;

/** An event's facts with the stored event they come from. */
type StoredFacts<S extends StoredEvent = StoredEvent> = EventFacts & { readonly stored: S };

/** The events of `stored` (oldest first) up to `at`, each as its facts with its stored event. */
const withFacts = <S extends StoredEvent>(stored: readonly S[], at: AsOf | undefined): StoredFacts<S>[] =>
  eventsUpTo(stored.map((e) => Object.assign(eventFactsOf(e), { stored: e })), at);

/** The sequence an object's events are read up to for `at` (a time reads them all, then keeps those observed by then). */
const seqBound = (at: AsOf | undefined): string | undefined => (at?.kind === 'seq' ? at.seq : undefined);

/** What `GET /v1/findings` narrows by: types, a start, a moment, one cluster. */
export interface FindingsFilter {
  readonly types?: readonly FindingType[] | undefined;
  readonly since?: AsOf | undefined;
  readonly at?: AsOf | undefined;
  readonly cluster?: string | undefined;
}

/** The distinct identities of a manager's index rows (each row's list as JSON text: `[[operation, apiVersion, subresource], …]`). */
function identitiesOf(lists: readonly string[]): ManagerIdentity[] {
  const byKey = new Map<string, ManagerIdentity>();
  for (const list of lists) {
    for (const [operation, apiVersion, subresource] of JSON.parse(list) as [Operation, string, string][]) {
      const identity = { operation, apiVersion, subresource };
      byKey.set(identityKey(identity), identity);
    }
  }
  return [...byKey.values()];
}

/** The list tags of the findings and managers folded as of a moment (offsets into the whole lists), and read from versions. */
const FOLDED_FINDINGS = 'findings';
const FOLDED_MANAGERS = 'managers-folded';
const FINDINGS_VERSIONS = 'findings-versions';
const MANAGERS_VERSIONS = 'managers-versions';
/** The list tags of a manager's fields: the whole list (offsets: folded, or from before keyed pages), and pages by key now and from versions. */
const MANAGER_FIELDS = 'manager-fields';
const MANAGER_FIELDS_NOW = 'manager-fields-now';
const MANAGER_FIELDS_VERSIONS = 'manager-fields-versions';

/** A cursor's key of a manager's fields: six strings Postgres can hold (no U+0000: a forged cursor gets a 400, not a database error). */
const isObjectListKey = (v: unknown): v is ObjectListKey => Array.isArray(v) && v.length === 6 && v.every((x) => isString(x) && !x.includes('\u0000'));

/** The identity columns of a row (`object_id`, `api_group`, `api_version` as stored) as an object's reference. */
const objectRefOfRow = (r: Omit<ObjectRow, 'last_seq' | 'last_at' | 'deleted_then' | 'owned_then'>): ObjectRef => ({
  objectId: r.object_id, cluster: r.cluster, uid: r.uid, group: r.api_group, version: r.api_version, kind: r.kind, namespace: r.namespace, name: r.name,
});

/** A finding's place in the list: its object's cluster and id, then its place (from 1) among the object's findings. */
type FindingKey = [cluster: string, objectId: string, ordinal: number];

const isFindingKey = (v: unknown): v is FindingKey =>
  Array.isArray(v) && v.length === 3 && isString(v[0]) && isString(v[1]) && Number.isInteger(v[2]) && (v[2] as number) > 0;

/** The list's order of keys, as its SQL orders them (`COLLATE "C"`: code points, as `compareStrings`). */
const compareFindingKeys = (a: FindingKey, b: FindingKey): number => compareStrings(a[0], b[0]) || compareStrings(a[1], b[1]) || a[2] - b[2];

/** A page of `limit` of the findings `rows` (one more than a page when there are more), its cursor tagged `list`. */
function findingsPage(rows: readonly { key: FindingKey; item: Finding }[], limit: number, list = FINDINGS_VERSIONS): Page<Finding> {
  const items = rows.slice(0, limit).map((r) => r.item);
  const last = rows[limit - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(list, last.key) : null };
}

/** `at=` as the one placeholder of `versionInForceAt`: the sequence, or the time in whole milliseconds (as events are compared). */
const versionMoment = (at: AsOf): string => (at.kind === 'seq' ? at.seq : new Date(at.ms).toISOString());

/**
 * The condition that the state `s` has an event observed by `moment` (a placeholder holding a time in
 * whole milliseconds, `versionMoment`'s), as the fold finds an object's events as of a time (to the
 * millisecond): its first event, or, for an object whose events went back in time, any of them.
 */
const seenByTime = (moment: string): string =>
  `(date_trunc('milliseconds', s.first_at) <= ${moment}::timestamptz
    OR (s.out_of_time_order AND EXISTS (SELECT 1 FROM events e WHERE e.object_id = s.object_id::bigint AND e.observed_at < ${moment}::timestamptz + interval '1 millisecond')))`;

/**
 * The condition that a row of a derived versions table (alias `v`: `findings_versions`,
 * `manager_objects_versions`) is in force at `at` (the placeholder `moment`, `versionMoment`'s).
 * By time, a row without times began (and if it has ended, ended) before every event kept: its event
 * is gone (a dropped partition). A row an earlier version's worker wrote has none either, but its
 * object is left out of time order (`ordered_through`) and folded instead.
 */
function versionInForceAt(v: string, at: AsOf, moment: string): string {
  return at.kind === 'seq'
    ? `${v}.seq <= ${moment}::bigint AND (${v}.until_seq IS NULL OR ${v}.until_seq > ${moment}::bigint)`
    : `coalesce(${v}.at, '-infinity') <= ${moment}::timestamptz AND (${v}.until_seq IS NULL OR coalesce(${v}.until_at, '-infinity') > ${moment}::timestamptz)`;
}

interface ObjectRow {
  object_id: string; cluster: string; uid: string; api_group: string; api_version: string; kind: string;
  namespace: string | null; name: string; last_seq: string; last_at: Date; deleted_then: boolean;
  /** Whether the manager filter keeps it; `null`: the snapshot decides. */
  owned_then: boolean | null;
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
    /** Answers use the documents stored up to two seconds ago. */
    private readonly schemas: SchemaCatalogSource = new StoredSchemaCatalog(dataSource, { maxAgeMs: SCHEMA_MAX_AGE_MS }),
  ) {
    this.reader = new EventReader(dataSource);
    this.loader = new ObservedEventLoader(dataSource);
  }

  /** The schemas answers are computed with now (the cluster's stored OpenAPI, bundled, or deduced). */
  async schemaResolver(): Promise<SchemaResolver> {
    return (await this.schemas.current()).resolve;
  }

  /**
   * `GET /v1/objects`: objects in id order. As of `at`, objects first seen later are left out and
   * `deleted` is as of then; `manager` keeps the objects where it owns a field: now, from the manager
   * index; as of `at`, in the snapshot then (`snapshot`): from the version in force, folded for the
   * objects whose versions cannot answer exactly (only those).
   */
  async listObjects(filter: ObjectFilter, at: AsOf | undefined, cursor: string | undefined, limit: number): Promise<Page<ObjectListItem>> {
    const matched: ObjectRow[] = [];
    let after = decodeCursor('objects', cursor, isString);
    // A row whose version cannot answer may turn out not to match: read on until the page is full (or the objects run out).
    for (;;) {
      const wanted = limit + 1 - matched.length;
      const rows = await this.objectRows(filter, at, after, wanted);
      for (const r of rows) {
        const owned = r.owned_then ?? managerOwnsAField((await this.snapshot(r.object_id, at)).fields, filter.manager!);
        if (owned) matched.push(r);
      }
      if (rows.length < wanted || matched.length > limit) break;
      after = rows[rows.length - 1]!.object_id;
    }
    const items = matched.slice(0, limit).map((r) => ({
      id: r.object_id, cluster: r.cluster, uid: r.uid, group: r.api_group, version: r.api_version, kind: r.kind,
      namespace: r.namespace, name: r.name, deleted: r.deleted_then, lastSeq: r.last_seq, lastAt: r.last_at.toISOString(),
    }));
    return { items, nextCursor: matched.length > limit ? encodeCursor('objects', items[items.length - 1]!.id) : null };
  }

  /**
   * Up to `limit` objects after `after` that pass the filters, in id order. `owned_then` is true
   * except with both `manager` and `at`: there whether the manager owned a field of it then, by the
   * version in force (one version row and the object's events up to `at`, by index), and `null`
   * where versions cannot answer exactly.
   */
  private async objectRows(filter: ObjectFilter, at: AsOf | undefined, after: string | undefined, limit: number): Promise<ObjectRow[]> {
    const [atSeq, atTime] = at ? versionAtParams(at) : [null, null];
    const then = at !== undefined && filter.manager !== undefined ? at : undefined;
    // No event by then: not listed (as `snapshot` finds none); else the version's owners, unknown (null) where it cannot answer.
    const ownedThen = then && `CASE WHEN t.seq IS NULL THEN false WHEN ${VERSION_ANSWERS} THEN ${ownsAFieldSql('v.fields', '$7')} END`;
    // Identity columns only: the jsonb state (with the object's body) is not read for a list.
    return this.dataSource.query(
      `SELECT s.object_id, s.cluster, s.uid, s.api_group, s.api_version, s.kind, s.namespace, s.name, s.last_seq::text AS last_seq, s.last_at,
              s.deleted AND ($9::bigint IS NULL OR s.last_seq <= $9::bigint)
                AND ($10::timestamptz IS NULL OR date_trunc('milliseconds', s.last_at) <= $10::timestamptz) AS deleted_then,
              ${ownedThen ?? 'true'} AS owned_then
       FROM ownership_states s
       ${then ? versionInForceSql('s.object_id::bigint', then.kind, '$12', '$13') : ''}
       WHERE s.generation = ${ACTIVE}
         AND ($1::text IS NULL OR s.cluster = $1) AND ($2::text IS NULL OR s.api_group = $2) AND ($3::text IS NULL OR s.api_version = $3)
         AND ($4::text IS NULL OR s.kind = $4) AND ($5::text IS NULL OR s.namespace = $5) AND ($6::text IS NULL OR s.name = $6)
         AND ${ownedThen
           ? `(${ownedThen}) IS NOT FALSE`
           : `($7::text IS NULL OR EXISTS (SELECT 1 FROM manager_objects m WHERE m.generation = s.generation AND m.object_id = s.object_id AND m.manager = $7))`}
         AND ($8::text IS NULL OR s.object_id > $8)
         AND ($9::bigint IS NULL OR s.first_seq <= $9::bigint) AND ($10::timestamptz IS NULL OR ${seenByTime('$10')})
       ORDER BY s.object_id
       LIMIT $11`,
      [filter.cluster ?? null, filter.group ?? null, filter.version ?? null, filter.kind ?? null, filter.namespace ?? null, filter.name ?? null,
        filter.manager ?? null, after ?? null, atSeq, atTime, limit, ...(then ? versionAtParams(then) : [])],
    );
  }

  /** The object's state now (from the projection) or as of `at` (folded from its events). */
  async state(objectId: string, at?: AsOf): Promise<ObjectOwnershipState> {
    if (!at) {
      const rows: StateRow[] = await this.dataSource.query(
        `SELECT ${STATE_COLUMNS} FROM ownership_states s WHERE s.generation = ${ACTIVE} AND s.object_id = $1`,
        [objectId],
      );
      if (!rows[0]) throw objectNotFound(objectId);
      return stateFromRow(rows[0]);
    }
    return this.foldedState(objectId, at, await this.schemaResolver());
  }

  /** The object's state as of `at`, folded from its events with `resolve`. */
  private async foldedState(objectId: string, at: AsOf, resolve: SchemaResolver): Promise<ObjectOwnershipState> {
    const { state } = foldObjectOwnership(await this.events(objectId, at), resolve);
    if (!state) throw objectNotFound(objectId, at);
    return state;
  }

  /** The object's events up to `at` (all of them without), oldest first. */
  async events(objectId: string, at?: AsOf): Promise<ObservedEvent[]> {
    return this.loader.load((await this.facts(objectId, at)).map((f) => f.stored));
  }

  /**
   * The facts of the object's events up to `at` (all of them without), oldest first, each with its
   * stored event (and its body as stored, with `bodies`); none is a 404.
   */
  private async facts(objectId: string, at: AsOf | undefined): Promise<StoredFacts[]>;
  private async facts(objectId: string, at: AsOf | undefined, bodies: true): Promise<StoredFacts<StoredEventWithBody>[]>;
  private async facts(objectId: string, at: AsOf | undefined, bodies = false): Promise<StoredFacts[]> {
    if (!/^\d{1,19}$/.test(objectId)) throw objectNotFound(objectId);
    const facts = bodies ? withFacts(await this.reader.objectHistoryWithBodies(objectId, seqBound(at)), at) : await this.factsUpTo(objectId, at);
    if (facts.length === 0) throw objectNotFound(objectId, at);
    return facts;
  }

  /** `facts` of an object id known to be well formed, none (not an error) where it has none by then. */
  private async factsUpTo(objectId: string, at: AsOf | undefined): Promise<StoredFacts[]> {
    return withFacts(await this.reader.objectHistory(objectId, seqBound(at)), at);
  }

  /**
   * The object as an owner read sees it: now (the projection) or as of `at` from the ownership
   * version in force then (`readSnapshotFromVersions`, one query whatever the length of its
   * history); folded from its events where versions cannot answer exactly.
   */
  async snapshot(objectId: string, at?: AsOf): Promise<OwnershipSnapshot> {
    if (!at) return ownershipSnapshotOf(await this.state(objectId));
    if (!/^\d{1,19}$/.test(objectId)) throw objectNotFound(objectId);
    const read = await readSnapshotFromVersions(this.dataSource, objectId, at);
    if (read === 'no-event') throw objectNotFound(objectId, at);
    return read ?? ownershipSnapshotOf(await this.state(objectId, at));
  }

  /** `withValues`: every leaf of the tree also carries its value in the object's body. */
  async ownership(objectId: string, at?: AsOf, withValues = false): Promise<{ state: OwnershipSnapshot; tree: OwnershipNode }> {
    const state = await this.snapshot(objectId, at);
    return { state, tree: ownershipTree(state, withValues && !state.deleted && state.object !== null ? state.object : undefined) };
  }

  async fieldOwners(objectId: string, path: string, at?: AsOf): Promise<FieldOwnersView> {
    return fieldOwners(await this.snapshot(objectId, at), path, await this.schemaResolver());
  }

  /**
   * `GET /v1/objects/{id}/fields/history`: the path's transitions from the projection and its values
   * along the object's stored bodies, without folding them again where the projection holds exactly
   * those events (projected up to the last one, every one readable, a prefix of the object's
   * history); folded otherwise. Now or as of a sequence, only the events at which the path's value
   * can change are read (`projectedFieldHistory`); as of a time, every event's facts and stored body
   * are, and a body is rebuilt only where a patch reaches the path (`pathValuesAlongChain`). No
   * event's managedFields are read.
   */
  async fieldHistory(objectId: string, path: string, at?: AsOf): Promise<FieldHistoryView> {
    const resolve = await this.schemaResolver();
    const direct = await this.fromChanges(objectId, at, (maxSeq) => projectedFieldHistory(this.dataSource, objectId, path, maxSeq, resolve));
    if (direct) return direct;
    const facts = await this.facts(objectId, at, true);
    const projected = await this.projected(objectId, facts, path, resolve);
    if (!projected) return fieldHistory(await this.loader.load(facts.map((f) => f.stored)), path, resolve);
    return fieldHistoryOfValues(projected.path, (await this.pathValues(facts, projected.path)).values, projected.transitions, eventsSchema(facts, resolve));
  }

  /**
   * `GET /v1/objects/{id}/explain`: from the projection like `fieldHistory` (`projectedExplanation`
   * now or as of a sequence), folded otherwise; the events' objects are rebuilt only from where
   * explaining starts to diff them (`explainStepSeq`, `explainChainStart`).
   */
  async explain(objectId: string, path: string, at?: AsOf): Promise<FieldExplanationView> {
    const resolve = await this.schemaResolver();
    const direct = await this.fromChanges(objectId, at, (maxSeq) => projectedExplanation(this.dataSource, this.reader, this.loader, objectId, path, maxSeq, resolve));
    if (direct) return direct;
    const facts = await this.facts(objectId, at, true);
    const projected = await this.projected(objectId, facts, path, resolve);
    if (!projected) return explainField(await this.loader.load(facts.map((f) => f.stored)), path, resolve);
    const { values, rebuilt } = await this.pathValues(facts, projected.path);
    const start = explainChainStart(projected.path, values, projected.transitions);
    const chain = rebuilt ? rebuilt.slice(start) : await this.loader.loadChain(facts.map((f) => f.stored), start);
    return explainFieldOfProjected(projected.path, eventsSchema(facts, resolve), chain, projected.transitions, projected.fields, resolve);
  }

  /**
   * An answer read from the events at which the path's value can change (`read`, given the sequence
   * bound), now or as of a sequence; `null` as of a time or where `read` cannot answer exactly (the
   * caller folds). An object without events by then is a 404.
   */
  private async fromChanges<T>(objectId: string, at: AsOf | undefined, read: (maxSeq: string | undefined) => Promise<T | 'no-event' | null>): Promise<T | null> {
    if (at?.kind === 'time') return null;
    if (!/^\d{1,19}$/.test(objectId)) throw objectNotFound(objectId);
    const answer = await read(seqBound(at));
    if (answer === 'no-event') throw objectNotFound(objectId, at);
    return answer;
  }

  /**
   * The value of `p` after each of `facts` (every event of the object up to a moment, oldest first,
   * with their bodies as stored): from the stored snapshot and patches (`pathValuesAlongChain`), or
   * from the events rebuilt whole where those cannot tell (`rebuilt`: those events).
   */
  private async pathValues(facts: readonly StoredFacts<StoredEventWithBody>[], p: ResolvedPath): Promise<{ values: EventValue[]; rebuilt?: ObservedEvent[] }> {
    const chain = facts.map((f) => f.stored);
    const values = pathValuesAlongChain(chain.map((e) => ({ encoding: e.bodyEncoding, json: e.bodyJson })), p.elements);
    if (values) return { values: facts.map((event, i) => ({ event, value: values[i] })) };
    const rebuilt = await this.loader.loadChain(chain);
    return { values: rebuilt.map(({ object, ...event }) => ({ event, value: valueAt(object, p.elements) })), rebuilt };
  }

  /**
   * What folding the events of `facts` (the object's, oldest first) would give, from the projection:
   * the path resolved, its stored transitions up to the last one (oldest first; history and explain
   * read no other) and its owned fields then. `null` unless the
   * projection holds exactly those events: projected up to the last, a prefix of the object's
   * history, every one readable (no version needing a fold), in a generation with versions.
   */
  private async projected(
    objectId: string,
    facts: readonly EventFacts[],
    path: string,
    resolve: SchemaResolver,
  ): Promise<{ path: ResolvedPath; transitions: FieldTransition[]; fields: OwnedField[] } | null> {
    const p = resolveEventsPath(facts, path, resolve);
    const { fieldsV1Path } = p;
    const first = facts[0]!;
    const lastSeq = String(facts[facts.length - 1]!.seq);
    const [check]: {
      usable: boolean; fields: EncodedOwnedFields | null; baseline: EncodedOwnedFields | null;
      schema: SchemaUsed | null; cluster: string; api_group: string; api_version: string; kind: string;
    }[] = await preparedQuery(
      this.dataSource,
      'projected-history-check',
      `SELECT ${recordedSchemaSql('s')} AS schema, s.cluster, s.api_group, s.api_version, s.kind,
              s.last_seq >= $2::bigint AND s.first_seq = $4::bigint
              AND (SELECT count(*) FROM events e WHERE e.object_id = $1::bigint AND e.seq <= $2::bigint) = $3
              AND NOT EXISTS (SELECT 1 FROM ownership_versions v WHERE v.generation = s.generation AND v.object_id = s.object_id
                                                                  AND v.seq <= $2::bigint AND v.fold_required) AS usable,
              (SELECT v.fields FROM ownership_versions v WHERE v.generation = s.generation AND v.object_id = s.object_id AND v.seq <= $2::bigint
               ORDER BY v.seq DESC LIMIT 1) AS fields,
              (SELECT v.fields FROM ownership_versions v WHERE v.generation = s.generation AND v.object_id = s.object_id AND v.seq = s.first_seq) AS baseline
       FROM ownership_states s WHERE s.generation = ${ACTIVE} AND s.object_id = $1::text`,
      [objectId, lastSeq, facts.length, String(first.seq)],
    );
    if (!check?.usable || check.fields === null || check.baseline === null) return null;
    // Folded with another schema than the answer's (a new one stored, its re-projection not run yet): fold instead.
    const recorded = recordedSchema(check.schema, apiVersionOf(check.api_group, check.api_version), check.kind, check.cluster);
    if (recorded.digest !== eventsSchema(facts, resolve).digest) return null;
    const rows: TransitionRow[] = await this.dataSource.query(
      `${SELECT_TRANSITION} WHERE t.generation = ${ACTIVE} AND t.object_id = $1 AND t.seq <= $2::bigint AND t.fields_v1_path = $3
       ORDER BY t.seq, t.ordinal`,
      [objectId, lastSeq, fieldsV1Path],
    );
    const baseline = baselineTransitions(objectId, { fields: decodeOwnedFields(check.baseline) }, { seq: String(first.seq), at: first.observedAt, source: first.source }, fieldsV1Path);
    return { path: p, transitions: [...baseline, ...rows.map(transitionFromRow)], fields: decodeOwnedFields(check.fields) };
  }

  /**
   * `GET /v1/objects/{id}/transitions`: newest first; the stored changes, then (oldest) the baseline
   * of the object's first observation, rebuilt from its first version. One statement: whether the
   * object is known (and whether its events went back in time), the page of stored transitions, and
   * the first observation with its version. As of a time, an object whose events went back in time is
   * folded from the events observed by then ({@link foldedTransitions}): its stored transitions
   * follow the events in sequence order, so a time does not cut them where it cuts its events.
   */
  async transitions(objectId: string, at: AsOf | undefined, cursor: string | undefined, limit: number): Promise<Page<FieldTransition>> {
    const before = decodeCursor('transitions', cursor, (v): v is TransitionsCursor => Array.isArray(v) && v.length === 2 && isString(v[0]) && /^\d+$/.test(v[0]) && Number.isInteger(v[1]));
    // Transitions are stored at their events' times to the millisecond; the first observation's event is compared so too.
    const [atSeq, atTime] = at ? versionAtParams(at) : [null, null];
    // Prepared: the first observation's event is read from the partitioned log, which plans in several times the time it runs.
    // `unordered`: null where the object is unknown.
    const [r] = await preparedQuery<{ unordered: boolean | null; rows: (Omit<TransitionRow, 'at'> & { at: string })[]; first: FirstObservation | null }>(
      this.dataSource,
      'object-transitions',
      `WITH page AS (
         ${SELECT_TRANSITION}
         WHERE t.generation = ${ACTIVE} AND t.object_id = $1
           AND ($2::bigint IS NULL OR (t.seq, t.ordinal) < ($2::bigint, $3::integer))
           AND ($4::bigint IS NULL OR t.seq <= $4::bigint) AND ($5::timestamptz IS NULL OR t.at <= $5::timestamptz)
         ORDER BY t.seq DESC, t.ordinal DESC -- the columns (bigint), not the text aliases
         LIMIT $6
       )
       SELECT (SELECT out_of_time_order FROM ownership_states WHERE generation = ${ACTIVE} AND object_id = $1) AS unordered,
              coalesce((SELECT json_agg(p ORDER BY p.seq::bigint DESC, p.ordinal DESC) FROM page p), '[]') AS rows,
              (SELECT json_build_object('seq', s.first_seq::text, 'at', e.observed_at, 'source', e.source, 'fields', v.fields)
               FROM ownership_states s
               JOIN ownership_versions v ON v.generation = s.generation AND v.object_id = s.object_id AND v.seq = s.first_seq
               JOIN events e ON e.object_id = s.object_id::bigint AND e.seq = s.first_seq
               WHERE s.generation = ${ACTIVE} AND s.object_id = $1
                 AND ($4::bigint IS NULL OR s.first_seq <= $4::bigint) AND ($5::timestamptz IS NULL OR e.observed_at < $5::timestamptz + interval '1 millisecond')) AS first`,
      [objectId, before?.[0] ?? null, before?.[1] ?? 0, atSeq, atTime, limit + 1],
    );
    if (r!.unordered === null) throw objectNotFound(objectId, at);
    if (at?.kind === 'time' && r!.unordered) return this.foldedTransitions(objectId, at, before, limit);
    const items: PlacedTransition[] = r!.rows.map((row) => ({ transition: transitionFromRow({ ...row, at: new Date(row.at) }), ordinal: row.ordinal }));
    if (items.length <= limit && r!.first) items.push(...baselineNewestFirst(objectId, r!.first, before));
    return transitionsPage(items, limit);
  }

  /**
   * `transitions` as of a time by folding the object's events observed by then (in sequence order,
   * as `ownership?at=` does): none observed yet gives an empty page, as it does from the stored ones.
   * Its cursor is the stored one's (sequence, place in the event), so pages join up either way.
   */
  private async foldedTransitions(objectId: string, at: AsOf, before: TransitionsCursor | undefined, limit: number): Promise<Page<FieldTransition>> {
    const placed = objectTransitions(await this.loader.load((await this.factsUpTo(objectId, at)).map((f) => f.stored)), await this.schemaResolver());
    return transitionsPage(placed.filter((p) => afterCursor(p, before)), limit);
  }

  /** Who may see objects is decided by what they are: cluster, group, resource, namespace, name by id (unknown ids left out). */
  async accessIdentities(objectIds: readonly string[]): Promise<Map<string, ObjectAccessIdentity>> {
    if (objectIds.length === 0) return new Map();
    const rows: { id: string; cluster: string; api_group: string; resource: string; namespace: string; name: string }[] = await this.dataSource.query(
      `SELECT o.id::text AS id, c.name AS cluster, o.api_group, o.resource, o.namespace, o.name
       FROM objects o JOIN clusters c ON c.id = o.cluster_id WHERE o.id = ANY($1::bigint[])`,
      [objectIds.filter((id) => /^\d{1,18}$/.test(id))],
    );
    return new Map(rows.map((r) => [r.id, { cluster: r.cluster, group: r.api_group, resource: r.resource, namespace: r.namespace, name: r.name }]));
  }

  /**
   * `GET /v1/managers`: every manager with what it owns, by name (`scopes`: only objects there;
   * undefined: all), of one cluster or all: the manager index's rows of a page of names, summed and
   * merged in SQL, now or as of a sequence or a time from their versions (`readsVersions`; as of a
   * time, the objects out of time order folded and added); as of a moment the versions cannot
   * answer, every object's state folded then. A caller's `view` (undefined: every object) counts the
   * objects of its allowed scopes, from every object's totals less the hidden ones where it says so.
   */
  async managers(at: AsOf | undefined, cursor: string | undefined, limit: number, view?: ScopedView, cluster?: string): Promise<Page<ManagerListItem>> {
    const scopes = view?.allowed;
    if (!at) return this.indexedManagers(null, cursor, limit, view, cluster);
    if (await this.readsVersions(at, cursor, MANAGERS_VERSIONS, FOLDED_MANAGERS)) {
      const unordered = await this.outOfTimeOrder(at, cluster, view);
      if (unordered.length === 0) return this.indexedManagers(at, cursor, limit, view, cluster);
      // The versions' sums of every manager after the cursor, and the folded objects' added to them.
      const after = decodeCursor(MANAGERS_VERSIONS, cursor, isString);
      const totals = new ManagerTotals();
      for (const m of await this.indexedManagerSummaries(at, after, null, view, cluster, unordered)) totals.merge(m);
      await this.forEachStateAt(at, cluster ? { cluster } : {}, scopes, (s) => totals.add(s), unordered);
      const all = totals.summaries().filter((m) => after === undefined || compareStrings(m.manager, after) > 0);
      const items = all.slice(0, limit);
      return { items, nextCursor: all.length > limit ? encodeCursor(MANAGERS_VERSIONS, items[items.length - 1]!.manager) : null };
    }
    const totals = new ManagerTotals();
    await this.forEachStateAt(at, cluster ? { cluster } : {}, scopes, (s) => totals.add(s));
    return pageOf(FOLDED_MANAGERS, totals.summaries(), cursor, limit);
  }

  /** The managers from the index now (`at` null: `manager_objects`), or as of `at` (`manager_objects_versions`), a page of names. */
  private async indexedManagers(at: AsOf | null, cursor: string | undefined, limit: number, view: ScopedView | undefined, cluster: string | undefined): Promise<Page<ManagerListItem>> {
    const list = at === null ? 'managers' : MANAGERS_VERSIONS;
    const rows = await this.indexedManagerSummaries(at, decodeCursor(list, cursor, isString), limit + 1, view, cluster, []);
    const items = rows.slice(0, limit);
    return { items, nextCursor: rows.length > limit ? encodeCursor(list, items[items.length - 1]!.manager) : null };
  }

  /**
   * The managers after `after` by name (at most `limit`; `null`: all), each with the sums of its
   * index rows now (`at` null) or in force at `at`, leaving out the objects of `exclude`; of the
   * objects `view` counts (every object's totals less those it hides, where it says so).
   */
  private async indexedManagerSummaries(
    at: AsOf | null, after: string | undefined, limit: number | null, view: ScopedView | undefined, cluster: string | undefined, exclude: readonly string[],
  ): Promise<ManagerListItem[]> {
    if (view === undefined || view.fromTotals) {
      return at === null ? this.managerTotals(after, limit, cluster, exclude, view?.allowed) : this.managerTotalsAt(at, exclude, after, limit, cluster, view?.allowed);
    }
    // A caller who sees fewer scopes than not: the index rows (now) or versions in force (as of `at`)
    // of its objects, looked up by their ids, summed per key (in "C": sorted by bytes where Postgres sorts).
    const params: unknown[] = [];
    const placeholder = (value: unknown): string => `$${params.push(value)}`;
    const source = at === null ? 'manager_objects m' : 'manager_objects_versions m';
    const inForce = at === null ? '' : `AND ${versionInForceAt('m', at, placeholder(versionMoment(at)))}`;
    const excluded = exclude.length === 0 ? '' : `AND m.object_id <> ALL (${placeholder(exclude)}::text[])`;
    const visible = seenBy('m.object_id', view, params.length + 1);
    params.push(...visible.params);
    // A row an earlier version's worker wrote during an upgrade has no identities: its paths count once each.
    const keyRows = `SELECT m.cluster COLLATE "C" AS cluster, m.manager COLLATE "C" AS manager, m.identities::text COLLATE "C" AS identities,
              count(*) AS objects, sum(coalesce(m.identity_field_count, m.field_count)) AS fields
       FROM ${source} WHERE m.generation = ${ACTIVE} ${inForce} ${excluded}${visible.sql}
       GROUP BY 1, 2, 3`;
    return this.managersFromKeySums(keyRows, params, after, limit, cluster);
  }

  /**
   * The managers after `after` by name (at most `limit`; `null`: all) with their sums now, over
   * every object (of `cluster`): from `manager_totals` (migration `ManagerTotals`), a few rows per
   * manager whatever the cluster's size; the same answer as summing the index rows. Less the index
   * rows of the objects of `exclude`, and of every object outside `allowed` where it is given (what a
   * caller may not see, found in the same statement: `outsideScopes`), one by one.
   */
  private async managerTotals(
    after: string | undefined, limit: number | null, cluster: string | undefined, exclude: readonly string[] = [], allowed?: readonly AccessScope[],
  ): Promise<ManagerListItem[]> {
    const totals = `SELECT m.cluster, m.manager, m.identities, m.objects, m.fields FROM manager_totals m WHERE m.generation = ${ACTIVE}`;
    if (exclude.length === 0 && allowed === undefined) return this.managersFromKeySums(totals, [], after, limit, cluster);
    const hidden = outsideScopes(allowed, 2);
    const keyRows = `${totals}
       UNION ALL
       SELECT x.cluster, x.manager, x.identities::text, -1, -coalesce(x.identity_field_count, x.field_count)
       FROM manager_objects x WHERE x.generation = ${ACTIVE} AND x.object_id = ANY($1::text[] || ARRAY(${hidden.sql}))`;
    return this.managersFromKeySums(keyRows, [exclude, ...hidden.params], after, limit, cluster);
  }

  /**
   * {@link managerTotals} as of `at`, over every object (of `cluster`) but those of `exclude`: from
   * the manager index's checkpoint at or before `at` (by sequence or by time: migrations
   * `ManagerCheckpoints`, `ManagerTimeCheckpoints`) and the versions that start or end between the
   * two, less the versions of `exclude` in force then; so a read costs the same at any size of the
   * cluster and its history, and answers as summing the versions in force then of every other object.
   */
  private async managerTotalsAt(
    at: AsOf, exclude: readonly string[], after: string | undefined, limit: number | null, cluster: string | undefined, allowed?: readonly AccessScope[],
  ): Promise<ManagerListItem[]> {
    const axis = at.kind === 'seq' ? SEQUENCE_CHECKPOINTS : TIME_CHECKPOINTS;
    const hidden = outsideScopes(allowed, 3);
    const keyRows = `${versionSumsAt(axis, ACTIVE, '$1')}
       UNION ALL
       -- the objects left out (folded instead, or hidden from the caller): their versions in force then taken away
       SELECT m.cluster, m.manager, m.identities::text, -1, -coalesce(m.identity_field_count, m.field_count)
       FROM manager_objects_versions m
       WHERE m.generation = ${ACTIVE} AND m.object_id = ANY($2::text[] || ARRAY(${hidden.sql})) AND ${versionInForceAt('m', at, '$1')}`;
    return this.managersFromKeySums(keyRows, [versionMoment(at), exclude, ...hidden.params], after, limit, cluster);
  }

  /**
   * The managers after `after` by name (at most `limit`; `null`: all), of `cluster` or every one,
   * from `keyRows` (SQL over `params`: rows of cluster, manager, identities as text, objects,
   * fields, a key's rows summing to its total): a manager's sums are its keys', its identities those
   * of its keys with objects; a manager whose objects sum to none is left out.
   */
  private async managersFromKeySums(
    keyRows: string, params: unknown[], after: string | undefined, limit: number | null, cluster: string | undefined,
  ): Promise<ManagerListItem[]> {
    const placeholder = (value: unknown): string => `$${params.push(value)}`;
    const [afterP, clusterP] = [placeholder(after ?? null), placeholder(cluster ?? null)];
    const rows: { manager: string; object_count: number; field_count: number; identities: string[] }[] = await this.dataSource.query(
      `SELECT t.manager, sum(t.objects)::integer AS object_count, sum(t.fields)::integer AS field_count,
              coalesce(array_agg(t.identities) FILTER (WHERE t.identities IS NOT NULL AND t.objects > 0), '{}') AS identities
       FROM (SELECT k.cluster, k.manager, k.identities, sum(k.objects) AS objects, sum(k.fields) AS fields
             FROM (${keyRows}) k
             WHERE (${afterP}::text IS NULL OR k.manager COLLATE "C" > ${afterP} COLLATE "C") AND (${clusterP}::text IS NULL OR k.cluster = ${clusterP})
             GROUP BY k.cluster, k.manager, k.identities) t
       GROUP BY t.manager HAVING sum(t.objects) > 0
       ORDER BY t.manager COLLATE "C" ${limit === null ? '' : `LIMIT ${placeholder(limit)}`}`,
      params,
    );
    return rows.map((r) => ({ manager: r.manager, identities: sortedIdentities(identitiesOf(r.identities)), objectCount: r.object_count, fieldCount: r.field_count }));
  }

  /**
   * `GET /v1/managers/{name}/fields`: the fields a manager owns, object by object. Now, and as of a
   * moment the versions answer (`readsVersions`), a page at a time from the manager index (its rows
   * now, its versions in force then: `managerFieldsByKey`); as of another moment, every object's
   * state then folded. A cursor of the whole list (an offset, from before keyed pages) goes on over
   * the whole list.
   */
  async managerFields(name: string, filter: ManagerFieldsFilter, at: AsOf | undefined, cursor: string | undefined, limit: number, scopes?: readonly AccessScope[]): Promise<Page<ManagerObjectFields>> {
    if (!at && !isCursorOf(MANAGER_FIELDS, cursor)) return this.managerFieldsByKey(name, filter, null, cursor, limit, scopes);
    if (at && (await this.readsVersions(at, cursor, MANAGER_FIELDS_VERSIONS, MANAGER_FIELDS))) return this.managerFieldsByKey(name, filter, at, cursor, limit, scopes);
    const states = at
      ? await this.statesAt(at, filter, scopes, (s) => managerFields([s], name, filter).length > 0)
      : await this.statesWhere(
          `EXISTS (SELECT 1 FROM manager_objects m WHERE m.generation = s.generation AND m.object_id = s.object_id AND m.manager = $1)
           AND ($2::text IS NULL OR s.cluster = $2) AND ($3::text IS NULL OR s.kind = $3) AND ($4::text IS NULL OR s.namespace = $4)`,
          [name, filter.cluster ?? null, filter.kind ?? null, filter.namespace ?? null],
          scopes,
        );
    return pageOf(MANAGER_FIELDS, managerFields(states, name, filter), cursor, limit);
  }

  /**
   * {@link managerFields} a page at a time, now (`at` null) or as of `at` where the versions hold
   * every object's then: the objects whose manager index row (now) or version in force then names
   * the manager, in the list's order after the cursor's key (`managerObjectsByKey`); each one's
   * owned fields from its state now, or from its ownership version in force then (folded where that
   * cannot answer exactly); as of a time, the objects out of time order folded and merged in. The
   * same items as the whole list, in the same order; the cursor is the last item's key.
   */
  private async managerFieldsByKey(
    name: string, filter: ManagerFieldsFilter, at: AsOf | null, cursor: string | undefined, limit: number, scopes: readonly AccessScope[] | undefined,
  ): Promise<Page<ManagerObjectFields>> {
    const list = at === null ? MANAGER_FIELDS_NOW : MANAGER_FIELDS_VERSIONS;
    const after = decodeCursor(list, cursor, isObjectListKey);
    const unordered = at === null ? [] : await this.outOfTimeOrder(at, filter.cluster, scopes && { allowed: scopes, fromTotals: false });
    const candidates = await this.managerObjectsByKey(name, filter, at, after, limit + 1, scopes, unordered);
    const owned: Map<string, ObjectOwnedFields | null> = at === null ? await this.statesOf(candidates) : await this.ownedFieldsAt(candidates, at);
    const rows: { key: ObjectListKey; item: ManagerObjectFields }[] = [];
    for (const c of candidates) {
      // Not in the map: its version cannot answer exactly, folded alone (now: its state is gone since).
      const known = owned.get(c.objectId);
      const state = known !== undefined ? known : at === null ? null : await this.state(c.objectId, at);
      for (const item of state ? managerFields([state], name, filter) : []) rows.push({ key: objectListKey(item), item });
    }
    if (at !== null && unordered.length > 0) await this.forEachStateAt(at, filter, scopes, (s) => {
      for (const item of managerFields([s], name, filter)) {
        const key = objectListKey(item);
        if (after === undefined || compareObjectListKeys(key, after) > 0) rows.push({ key, item });
      }
    }, unordered);
    // Past the last candidate read, only the next page knows what comes first.
    const bound = candidates.length > limit ? objectListKey(candidates[candidates.length - 1]!) : undefined;
    const sorted = rows.filter((r) => bound === undefined || compareObjectListKeys(r.key, bound) <= 0).sort((a, b) => compareObjectListKeys(a.key, b.key));
    const items = sorted.slice(0, limit);
    const next = sorted.length > limit ? items[items.length - 1]!.key : bound;
    return { items: items.map((r) => r.item), nextCursor: next === undefined ? null : encodeCursor(list, next) };
  }

  /**
   * Up to `limit` objects after `after` in the list's order (`COLLATE "C"`: code points, as
   * `compareStrings`) in which the manager index row now (`at` null: of a live state) or its version
   * in force at `at` names `name`, of those the filters (on the object's identity as stored now, as
   * every versions read takes it) and `scopes` keep, but those of `exclude`. The list's order is an
   * index of the states (migration `ManagerFieldsListOrder`): a page reads about `limit` objects of a
   * manager that owns many, where it sorted all of them.
   */
  private async managerObjectsByKey(
    name: string, filter: ManagerFieldsFilter, at: AsOf | null, after: ObjectListKey | undefined, limit: number, scopes: readonly AccessScope[] | undefined, exclude: readonly string[],
  ): Promise<ObjectRef[]> {
    const params: unknown[] = [name, filter.cluster ?? null, filter.group ?? null, filter.version ?? null, filter.kind ?? null, filter.namespace ?? null,
      filter.name ?? null, after ?? null, exclude, limit];
    const placeholder = (value: unknown): string => `$${params.push(value)}`;
    const [source, named] = at === null
      ? ['manager_objects m', 'NOT s.deleted']
      : ['manager_objects_versions m', versionInForceAt('m', at, placeholder(versionMoment(at)))];
    const visible = inScopes('s.object_id', scopes, params.length + 1);
    // The list's order, as the index of the states keeps it (the same expressions, for the planner to match them).
    const order = `s.cluster COLLATE "C", s.api_group COLLATE "C", s.kind COLLATE "C", (coalesce(s.namespace, '') COLLATE "C"), s.name COLLATE "C", s.object_id COLLATE "C"`;
    const rows: (Omit<ObjectRow, 'last_seq' | 'last_at' | 'deleted_then' | 'owned_then'>)[] = await this.dataSource.query(
      `SELECT s.object_id, s.cluster, s.uid, s.api_group, s.api_version, s.kind, s.namespace, s.name
       FROM ${source} JOIN ownership_states s ON s.generation = m.generation AND s.object_id = m.object_id
       WHERE m.generation = ${ACTIVE} AND m.manager = $1 AND ${named} AND m.object_id <> ALL ($9::text[])
         AND ($2::text IS NULL OR s.cluster = $2) AND ($3::text IS NULL OR s.api_group = $3) AND ($4::text IS NULL OR s.api_version = $4)
         AND ($5::text IS NULL OR s.kind = $5) AND ($6::text IS NULL OR coalesce(s.namespace, '') = $6) AND ($7::text IS NULL OR s.name = $7)
         AND ($8::text[] IS NULL OR (${order}) > (($8::text[])[1], ($8::text[])[2], ($8::text[])[3], ($8::text[])[4], ($8::text[])[5], ($8::text[])[6]))${visible.sql}
       ORDER BY ${order}
       LIMIT $10`,
      [...params, ...visible.params],
    );
    return rows.map(objectRefOfRow);
  }

  /** The states of `objects` now, by object id. */
  private async statesOf(objects: readonly ObjectRef[]): Promise<Map<string, ObjectOwnershipState>> {
    if (objects.length === 0) return new Map();
    return new Map((await this.statesWhere(`s.object_id = ANY($1::text[])`, [objects.map((o) => o.objectId)])).map((st) => [st.objectId, st]));
  }

  /**
   * The owned fields of `objects` as of `at` from their ownership versions in force then, by object
   * id: where the version answers exactly (`VERSION_ANSWERS`; the others are left out, to be
   * folded); a deleted object owns none; `null` for an object with no event kept by then (retention
   * dropped them: not listed, as `GET /v1/objects?manager=&at=` leaves it out).
   */
  private async ownedFieldsAt(objects: readonly ObjectRef[], at: AsOf): Promise<Map<string, ObjectOwnedFields | null>> {
    if (objects.length === 0) return new Map();
    const rows: { object_id: string; no_event: boolean; answers: boolean; deleted: boolean; fields: EncodedOwnedFields }[] = await this.dataSource.query(
      `SELECT s.object_id, t.seq IS NULL AS no_event, ${VERSION_ANSWERS} AS answers, v.deleted, v.fields FROM ownership_states s
       ${versionInForceSql('s.object_id::bigint', at.kind, '$2', '$3')}
       WHERE s.generation = ${ACTIVE} AND s.object_id = ANY ($1::text[])`,
      [objects.map((o) => o.objectId), ...versionAtParams(at)],
    );
    const byId = new Map(objects.map((o) => [o.objectId, o]));
    const owned = new Map<string, ObjectOwnedFields | null>();
    for (const r of rows) {
      if (r.no_event) owned.set(r.object_id, null);
      else if (r.answers) owned.set(r.object_id, { ...byId.get(r.object_id)!, deleted: r.deleted, fields: r.deleted ? [] : decodeOwnedFields(r.fields) });
    }
    return owned;
  }

  /**
   * `GET /v1/findings`: the findings the projection stored per object, read in the list's order
   * (cluster, object id, then as stored) a page at a time: now, or as of a sequence or a time from
   * their versions (`readsVersions`; as of a time, the objects out of time order folded and merged
   * in); as of a moment the versions cannot answer, over every object's state folded then. Of one
   * cluster or all.
   */
  async findings(filter: FindingsFilter, cursor: string | undefined, limit: number, view?: ScopedView): Promise<Page<Finding>> {
    const { types, since, at, cluster } = filter;
    const scopes = view?.allowed;
    const options = { ...(types && types.length > 0 ? { types } : {}), ...(since ? { since } : {}) };
    if (!at) return this.storedFindings(filter, null, cursor, limit, view);
    if (await this.readsVersions(at, cursor, FINDINGS_VERSIONS, FOLDED_FINDINGS)) {
      const unordered = await this.outOfTimeOrder(at, cluster, view);
      if (unordered.length === 0) return this.storedFindings(filter, at, cursor, limit, view);
      // A page of the versions' findings and the folded objects' after the cursor, merged in the list's order.
      const after = decodeCursor(FINDINGS_VERSIONS, cursor, isFindingKey);
      const rows = await this.storedFindingRows(filter, at, after, limit + 1, view, unordered);
      await this.forEachStateAt(at, cluster ? { cluster } : {}, scopes, (s) => {
        // Each finding's key is its place among the object's findings, as the versions store them (one per field and type).
        const places = new Map(fieldFindings(s).map((x, i) => [`${x.fieldsV1Path}\u0000${x.type}`, i + 1]));
        for (const f of findings([s], options)) {
          const key: FindingKey = [f.cluster, f.objectId, places.get(`${f.fieldsV1Path}\u0000${f.type}`)!];
          if (after === undefined || compareFindingKeys(key, after) > 0) rows.push({ key, item: f });
        }
      }, unordered);
      rows.sort((a, b) => compareFindingKeys(a.key, b.key));
      return findingsPage(rows, limit);
    }
    const all: Finding[] = [];
    await this.forEachStateAt(at, cluster ? { cluster } : {}, scopes, (s) => all.push(...findings([s], options)));
    return pageOf(FOLDED_FINDINGS, all.sort(compareFindings), cursor, limit);
  }

  /**
   * True when a list as of `at` reads the versions, false when it folds: as of a moment the versions
   * answer (`derivedVersionsAnswer` by sequence, `timeVersionsAnswer` by time); a list goes on the way
   * it began (its cursor's list tag).
   */
  private async readsVersions(at: AsOf, cursor: string | undefined, versionsList: string, foldedList: string): Promise<boolean> {
    if (isCursorOf(foldedList, cursor)) return false;
    return isCursorOf(versionsList, cursor) || (at.kind === 'seq' ? await this.derivedVersionsAnswer(at.seq) : await this.timeVersionsAnswer(versionMoment(at)));
  }

  /**
   * True when the versions of the findings and of the manager index hold every object's as of the
   * time `time` (whole milliseconds, as `versionMoment` gives it), but for the objects out of time
   * order (`outOfTimeOrder`): the active generation's versions are complete by then (from when the
   * newest event up to `derived_versions_start` was observed), every state was written with its
   * versions, and every event observed by then is projected.
   */
  private async timeVersionsAnswer(time: string): Promise<boolean> {
    const [row]: { answers: boolean }[] = await preparedQuery(
      this.dataSource,
      'time-versions-answer',
      `SELECT coalesce((SELECT d.at FROM derived_versions_start d WHERE d.generation = ${ACTIVE}), '-infinity') <= $1::timestamptz
              AND NOT EXISTS (SELECT 1 FROM ownership_states s WHERE s.generation = ${ACTIVE} AND s.versions_behind)
              -- observed by then to the millisecond
              AND NOT ${someNotProjectedBefore(`$1::timestamptz + interval '1 millisecond'`, ACTIVE)} AS answers`,
      [time],
    );
    return row?.answers === true;
  }

  /**
   * True when the versions of the findings and of the manager index hold every object's as of
   * `seq`: the active generation keeps them from `seq` or before, every state was written with its
   * versions, and every event up to `seq` is projected (none after the projection's checkpoint).
   */
  private async derivedVersionsAnswer(seq: string): Promise<boolean> {
    const [row]: { answers: boolean }[] = await preparedQuery(
      this.dataSource,
      'derived-versions-answer',
      `SELECT coalesce((SELECT v.seq FROM derived_versions_start v WHERE v.generation = ${ACTIVE}), 0) <= $1::bigint
              -- a state written without its versions (by an earlier version's worker, during a rollout)
              AND NOT EXISTS (SELECT 1 FROM ownership_states s WHERE s.generation = ${ACTIVE} AND s.versions_behind)
              AND NOT EXISTS (
                SELECT 1 FROM events e
                WHERE e.seq <= $1::bigint
                  AND ${notProjectedSql('e', ACTIVE)}
              ) AS answers`,
      [seq],
    );
    return row?.answers === true;
  }

  /**
   * As of a time, the objects (of `cluster`, visible in `scopes`) one of whose events was observed
   * earlier than the one before it (`ordered_through` left behind): their events observed by then
   * need not be the first ones of their history, so their versions cannot answer and they are folded.
   * None as of a sequence.
   */
  private async outOfTimeOrder(at: AsOf, cluster: string | undefined, view: ScopedView | undefined): Promise<string[]> {
    if (at.kind === 'seq') return [];
    const visible = seenBy('u.object_id', view, 2, 'filter');
    // Such rows first (by their partial index), then those the caller sees.
    const rows: { object_id: string }[] = await this.dataSource.query(
      `WITH u AS MATERIALIZED (
         SELECT s.object_id FROM ownership_states s
         WHERE s.generation = ${ACTIVE} AND s.out_of_time_order AND ($1::text IS NULL OR s.cluster = $1))
       SELECT u.object_id FROM u WHERE true${visible.sql}`,
      [cluster ?? null, ...visible.params],
    );
    return rows.map((r) => r.object_id);
  }

  /** The findings stored now (`at` null: `object_findings`), or as of `at` (`findings_versions`), a page in the list's order. */
  private async storedFindings(filter: FindingsFilter, at: AsOf | null, cursor: string | undefined, limit: number, view?: ScopedView): Promise<Page<Finding>> {
    const list = at === null ? 'stored-findings' : FINDINGS_VERSIONS;
    const rows = await this.storedFindingRows(filter, at, decodeCursor(list, cursor, isFindingKey), limit + 1, view, []);
    return findingsPage(rows, limit, list);
  }

  /**
   * At most `limit` findings after the key `after` in the list's order, stored now (`at` null) or in
   * force at `at`, leaving out the objects of `exclude`; each with its key (cluster, object id, place);
   * of the objects `view` counts (every object's but those it hides, where it says so).
   */
  private async storedFindingRows(
    filter: FindingsFilter, at: AsOf | null, after: FindingKey | undefined, limit: number, view: ScopedView | undefined, exclude: readonly string[],
  ): Promise<{ key: FindingKey; item: Finding }[]> {
    const { types, since, cluster } = filter;
    const params: unknown[] = [cluster ?? null, after?.[0] ?? null, after?.[1] ?? null, after?.[2] ?? null, types && types.length > 0 ? types : null,
      since?.kind === 'seq' ? since.seq : null, since?.kind === 'time' ? new Date(since.ms).toISOString() : null, limit];
    const placeholder = (value: unknown): string => `$${params.push(value)}`;
    const source = at === null ? 'object_findings f' : 'findings_versions f';
    const inForce = at === null ? '' : `AND ${versionInForceAt('f', at, placeholder(versionMoment(at)))}`;
    const excluded = exclude.length === 0 ? '' : `AND f.object_id <> ALL (${placeholder(exclude)}::text[])`;
    // The objects the view counts, found in this statement.
    const visible = seenBy('f.object_id', view, params.length + 1);
    const rows: (Omit<ObjectRow, 'last_seq' | 'last_at' | 'deleted_then' | 'owned_then'> & { ordinal: number; finding: FieldFinding })[] = await this.dataSource.query(
      `SELECT f.object_id, f.cluster, s.uid, s.api_group, s.api_version, s.kind, s.namespace, s.name, x.ordinal::integer AS ordinal, x.finding
       FROM ${source}
       JOIN ownership_states s ON s.generation = f.generation AND s.object_id = f.object_id
       CROSS JOIN LATERAL json_array_elements(f.findings) WITH ORDINALITY AS x(finding, ordinal)
       WHERE f.generation = ${ACTIVE} ${inForce} ${excluded} AND ($1::text IS NULL OR f.cluster = $1)
         AND ($2::text IS NULL OR (f.cluster COLLATE "C", f.object_id COLLATE "C", x.ordinal) > ($2 COLLATE "C", $3 COLLATE "C", $4::bigint))
         -- type and since as findings() filters them (its after(): a sequence or a time, inclusive; the time is whole milliseconds)
         AND ($5::text[] IS NULL OR ${decodableJsonSql('x.finding')}->>'type' = ANY($5::text[]))
         AND ($6::numeric IS NULL OR (${decodableJsonSql('x.finding')}->'since'->>'seq')::numeric >= $6::numeric)
         AND ($7::timestamptz IS NULL OR (${decodableJsonSql('x.finding')}->'since'->>'at')::timestamptz >= $7::timestamptz)${visible.sql}
       ORDER BY f.cluster COLLATE "C", f.object_id COLLATE "C", x.ordinal
       LIMIT $8`,
      [...params, ...visible.params],
    );
    return rows.map((r) => ({
      key: [r.cluster, r.object_id, r.ordinal],
      item: { ...objectRefOfRow(r), ...r.finding },
    }));
  }

  /** Every place tracked objects live (cluster, group, resource, namespace), for access checks of aggregates. */
  async accessScopes(): Promise<AccessScope[]> {
    const rows: { cluster: string; api_group: string; resource: string; namespace: string }[] = await this.dataSource.query(
      `SELECT DISTINCT c.name AS cluster, s.api_group, s.resource, s.namespace FROM object_scopes s JOIN clusters c ON c.id = s.cluster_id
       ORDER BY 1, 2, 3, 4`,
    );
    return rows.map((r) => ({ cluster: r.cluster, group: r.api_group, resource: r.resource, namespace: r.namespace }));
  }

  /** The resource (plural) that serves a kind in a cluster and whether it is namespaced, as its tracked objects record it; undefined when none is tracked. */
  async resourceOf(cluster: string, group: string, kind: string): Promise<{ resource: string; namespaced: boolean } | undefined> {
    const rows: { resource: string; namespaced: boolean }[] = await this.dataSource.query(
      `SELECT o.resource, o.namespace <> '' AS namespaced FROM objects o JOIN clusters c ON c.id = o.cluster_id WHERE c.name = $1 AND o.api_group = $2 AND o.kind = $3 LIMIT 1`,
      [cluster, group, kind],
    );
    return rows[0];
  }

  /** The latest live state of the object a manifest names (for `simulate/apply`), if tracked. */
  async liveObject(cluster: string, group: string, kind: string, namespace: string | null, name: string): Promise<ObjectOwnershipState | undefined> {
    const rows: StateRow[] = await this.dataSource.query(
      `SELECT ${STATE_COLUMNS} FROM ownership_states s
       WHERE s.generation = ${ACTIVE} AND s.cluster = $1 AND s.api_group = $2 AND s.kind = $3 AND s.name = $4 AND NOT s.deleted
         AND (s.namespace IS NULL OR s.namespace = coalesce($5, 'default'))
       ORDER BY s.last_seq DESC LIMIT 1`,
      [cluster, group, kind, name, namespace],
    );
    return rows[0] && stateFromRow(rows[0]);
  }

  private async statesWhere(where: string, params: unknown[], scopes?: readonly AccessScope[]): Promise<ObjectOwnershipState[]> {
    const visible = inScopes('s.object_id', scopes, params.length + 1);
    const rows: StateRow[] = await this.dataSource.query(
      `SELECT ${STATE_COLUMNS} FROM ownership_states s WHERE s.generation = ${ACTIVE} AND ${where}${visible.sql} ORDER BY s.object_id`,
      [...params, ...visible.params],
    );
    return rows.map(stateFromRow);
  }

  /** The states as of `at` that `keep` keeps, folded from their events (see `forEachStateAt`). */
  private async statesAt(at: AsOf, filter: ManagerFieldsFilter, scopes: readonly AccessScope[] | undefined, keep: (s: ObjectOwnershipState) => boolean): Promise<ObjectOwnershipState[]> {
    const kept: ObjectOwnershipState[] = [];
    await this.forEachStateAt(at, filter, scopes, (s) => {
      if (keep(s)) kept.push(s);
    });
    return kept;
  }

  /**
   * Every object's state as of `at` (of those in `only`, when given), folded from its events, one after another in object id order
   * (costly: one fold per object seen by then). Each is handed to `each` and not kept: a caller that
   * keeps only what it sums holds one object's events at a time, whatever the number of objects.
   * An object whose every event waits for the projector has no state yet: it is found by its pending
   * events and folded all the same.
   */
  private async forEachStateAt(
    at: AsOf, filter: ManagerFieldsFilter, scopes: readonly AccessScope[] | undefined, each: (s: ObjectOwnershipState) => void, only?: readonly string[],
  ): Promise<void> {
    const [atSeq, atTime] = versionAtParams(at);
    const visible = inScopes('object_id', scopes, 7);
    const pendingVisible = inScopes('o.id::text', scopes, 7);
    const rows: { object_id: string }[] = await this.dataSource.query(
      `SELECT object_id FROM ownership_states s
       WHERE generation = ${ACTIVE} AND ($1::bigint IS NULL OR first_seq <= $1::bigint) AND ($2::timestamptz IS NULL OR ${seenByTime('$2')})
         AND ($3::text IS NULL OR cluster = $3) AND ($4::text IS NULL OR kind = $4) AND ($5::text IS NULL OR namespace = $5)
         AND ($6::text[] IS NULL OR object_id = ANY ($6::text[]))${visible.sql}
       UNION
       SELECT o.id::text FROM objects o JOIN clusters c ON c.id = o.cluster_id
       WHERE o.id = ANY (ARRAY(
               SELECT e.object_id FROM events e
               WHERE e.seq = ANY (${notProjectedSeqsSql(ACTIVE)})
                 AND ($1::bigint IS NULL OR e.seq <= $1::bigint) AND ($2::timestamptz IS NULL OR e.observed_at < $2::timestamptz + interval '1 millisecond')))
         AND NOT EXISTS (SELECT 1 FROM ownership_states s WHERE s.generation = ${ACTIVE} AND s.object_id = o.id::text)
         AND ($3::text IS NULL OR c.name = $3) AND ($4::text IS NULL OR o.kind = $4) AND ($5::text IS NULL OR o.namespace = $5)
         AND ($6::text[] IS NULL OR o.id::text = ANY ($6::text[]))${pendingVisible.sql}
       ORDER BY 1`,
      [atSeq, atTime, filter.cluster ?? null, filter.kind ?? null, filter.namespace ?? null, only ?? null, ...visible.params],
    );
    // One schema for the whole answer, however long its folds take.
    const resolve = await this.schemaResolver();
    for (const r of rows) each(await this.foldedState(r.object_id, at, resolve));
  }
}

/** An object's first observation and its ownership version then, as the transitions statement reads them (`at` as JSON renders a time). */
interface FirstObservation {
  seq: string;
  at: string;
  source: ObservedEvent['source'];
  fields: EncodedOwnedFields;
}

/** A `transitions` cursor: the sequence and place in its event of the last transition of the page before. */
type TransitionsCursor = [seq: string, ordinal: number];

/** Whether a transition comes after the cursor, newest first (all do without one): the stored ones' `(seq, ordinal) <` in SQL. */
function afterCursor(p: PlacedTransition, before: TransitionsCursor | undefined): boolean {
  if (!before) return true;
  const seq = BigInt(p.transition.seq);
  return seq < BigInt(before[0]) || (seq === BigInt(before[0]) && p.ordinal < before[1]);
}

/** A page of `limit` transitions (newest first) from `items`, which hold one more when there is a next page. */
function transitionsPage(items: readonly PlacedTransition[], limit: number): Page<FieldTransition> {
  const page = items.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map((p) => p.transition), nextCursor: items.length > limit && last ? encodeCursor('transitions', [last.transition.seq, last.ordinal]) : null };
}

/** The baseline transitions of an object (its first observation), newest first, narrowed like stored ones by the cursor. */
function baselineNewestFirst(objectId: string, first: FirstObservation, before: TransitionsCursor | undefined): PlacedTransition[] {
  const baseline = baselineTransitions(objectId, { fields: decodeOwnedFields(first.fields) }, { seq: first.seq, at: new Date(first.at).toISOString(), source: first.source });
  return baseline.map((transition, ordinal) => ({ transition, ordinal })).filter((p) => afterCursor(p, before)).reverse();
}

/** `404 object-not-found`: the one answer for an object that does not exist, and for one the caller may not see. */
export function objectNotFound(objectId: string, at?: AsOf): StoreQueryError {
  const when = !at ? '' : at.kind === 'seq' ? ` at sequence ${at.seq}` : ` at ${at.time}`;
  return new StoreQueryError('object-not-found', `no object with id "${objectId}"${when}`, 'id');
}
