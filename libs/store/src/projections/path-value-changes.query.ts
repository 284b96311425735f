import type { DataSource } from 'typeorm';
import {
  apiVersionOf,
  baselineTransitions,
  decodeOwnedFields,
  eventsSchema,
  explainFieldOfProjected,
  explainStepSeq,
  fieldHistoryOfValues,
  seqString,
  recordedSchema,
  resolveEventsPath,
  type EncodedOwnedFields,
  type EventFacts,
  type EventValue,
  type FieldExplanationView,
  type FieldHistoryView,
  type FieldTransition,
  type ResolvedPath,
  type SchemaResolver,
  type SchemaUsed,
} from '../../../audit/src/index.js';
import { preparedQuery } from '../database/prepared-query.js';
import type { EventReader, StoredEvent, StoredEventWithBody } from '../events/event-reader.js';
import { eventFactsOf, type ObservedEventLoader } from '../events/observed-event.loader.js';
import type { BodyEncoding } from '../ingest/body.util.js';
import { patchFilterOf, pathValuesAlongChain } from '../ingest/body-values.util.js';
import { pathsMask } from '../ingest/patch-paths.util.js';
import { ACTIVE_GENERATION as ACTIVE } from './active-generation.sql.js';
import { recordedSchemaSql } from './schema-choices.js';
import { SELECT_TRANSITION, transitionFromRow, type TransitionRow } from './transition-row.js';

/** The object and its first event, whether it has only that one up to the bound, and whether the projection holds exactly its events. */
interface SummaryRow {
  single: boolean; last_seq: string; cluster: string; uid: string; api_group: string; version: string; kind: string; namespace: string; name: string;
  first_seq: string; observed_at: Date; source: StoredEvent['source']; event_type: StoredEvent['eventType']; resource_version: string;
  /** Whether the first event has its summary of what changed (an object appended to before them has none: only the statement of every patch can read it). */
  summarized: boolean;
  schema: SchemaUsed | null; usable: boolean; baseline: EncodedOwnedFields | null; fields: EncodedOwnedFields | null;
}

/**
 * SQL: the summary of object `$1`'s events up to sequence `$2` (all without), with the owned fields
 * after the last where `$3`. `usable`: the active
 * projection holds exactly those events (projected up to the last, starting at the first, none of
 * its versions needing a fold), as `OwnershipQueries`' check for a fold-free answer asks.
 */
const SUMMARY = `
  WITH bounds AS (
    -- min and max only: each one probe of the object's index, whatever the length of its history
    SELECT min(e.seq) AS first_seq, max(e.seq) AS last_seq
    FROM events e WHERE e.object_id = $1::bigint AND ($2::bigint IS NULL OR e.seq <= $2::bigint)
  )
  SELECT b.first_seq = b.last_seq AS single, b.last_seq::text AS last_seq, c.name AS cluster, o.uid, o.api_group, o.api_version AS version, o.kind, o.namespace, o.name,
         f.seq::text AS first_seq, f.observed_at, f.source, f.event_type, f.resource_version, f.change_paths IS NOT NULL AS summarized,
         ${recordedSchemaSql('s')} AS schema,
         coalesce(s.last_seq >= b.last_seq AND s.first_seq = b.first_seq
                  AND NOT EXISTS (SELECT 1 FROM ownership_versions v WHERE v.generation = s.generation AND v.object_id = s.object_id
                                                                      AND v.seq <= b.last_seq AND v.fold_required), false) AS usable,
         (SELECT v.fields FROM ownership_versions v WHERE v.generation = s.generation AND v.object_id = s.object_id AND v.seq = s.first_seq) AS baseline,
         CASE WHEN $3::boolean THEN (SELECT v.fields FROM ownership_versions v WHERE v.generation = s.generation AND v.object_id = s.object_id
                                                                        AND v.seq <= b.last_seq ORDER BY v.seq DESC LIMIT 1) END AS fields
  FROM bounds b
  JOIN events f ON f.object_id = $1::bigint AND f.seq = b.first_seq
  JOIN objects o ON o.id = $1::bigint JOIN clusters c ON c.id = o.cluster_id
  LEFT JOIN ownership_states s ON s.generation = ${ACTIVE} AND s.object_id = $1::text`;

/**
 * SQL: where explaining starts to diff when the path lost no owner and never left (the last event,
 * `$2`, where it is a deletion or the only one, else the last before it that is not a deletion), and
 * the snapshot it is built on, where `withChain` (a boolean parameter) asks for them; read backwards
 * on the object's index (a row or two, not the whole history). Object `$1`.
 */
const tailOf = (withChain: string): string => `
    SELECT t.start, (SELECT max(s.seq) FROM events s WHERE s.object_id = $1::bigint AND s.seq <= t.start AND s.body_encoding = 'full') AS snapshot
    FROM (SELECT CASE WHEN NOT ${withChain}::boolean THEN NULL
                      WHEN (SELECT s.event_type FROM events s WHERE s.object_id = $1::bigint AND s.seq = $2::bigint) = 'DELETED' THEN $2::bigint
                      ELSE coalesce((SELECT max(s.seq) FROM events s WHERE s.object_id = $1::bigint AND s.seq < $2::bigint AND s.event_type <> 'DELETED'), $2::bigint)
                 END AS start) t`;

/** SQL: the path's stored transitions (its FieldsV1 form the text parameter `fieldsV1Path`) of object `$1` up to sequence `$2`, oldest first, as a JSON array. */
const transitionsOf = (fieldsV1Path: string): string => `
           SELECT coalesce(json_agg(t ORDER BY t.seq::bigint, t.ordinal), '[]')
           FROM (${SELECT_TRANSITION} WHERE t.generation = ${ACTIVE} AND t.object_id = $1::text AND t.seq <= $2::bigint AND t.fields_v1_path = ${fieldsV1Path}::text) t`;

/** An event of object `$1` at which the value of the path can change, with its body as stored. */
export interface ChangeRow {
  seq: string; event_type: StoredEvent['eventType']; source: StoredEvent['source']; observed_at: Date; resource_version: string;
  body_encoding: BodyEncoding; body: string | null; readable: boolean;
  /** The first row's: the path's stored transitions, oldest first (`at` as JSON text). */
  transitions: (Omit<TransitionRow, 'at'> & { at: string })[] | null;
  /** Whether the value can change at the event; whether explaining's default chain needs it (`wanted`: from its start on; the others, its snapshot). */
  changes: boolean; in_tail: boolean; wanted: boolean;
  /** The rest of the stored event, for a row of the chain only. */
  xid: string | null; api_version: string | null; mf: string | null; managed_fields_times: (string | null)[] | null;
}

/**
 * SQL: the events of object `$1` up to sequence `$2` (all without), oldest first, at which the value
 * of a path can differ from the event's before; the others have the value of the one before them.
 * The path is given as `patchFilterOf` gives it: the pointer of its leading field names (`$3`) and
 * LIKE patterns of the texts a compact patch reaching it must hold, and of a patch not compact
 * (`$4`: a compact patch that matches none of them is not parsed), and the bits of the path in the
 * summaries of the patches' paths (`$5`, `pathsMask`: a patch with none of them is not even read;
 * one without a summary, written before, is). Every snapshot is kept (its value is read
 * from it); a snapshot patch is kept where its operations that reach the path (`reach`: on the
 * pointer, above it or below it, as `pathValuesAlongChain` decides; the whole patch where one
 * copies or moves) differ from the event's before (a snapshot's count as none): the same operations
 * on the same snapshot give the same value, and no other operation reaches the path's node or a
 * node it hangs from. A deletion and the event after one are kept (a deleted object has no
 * value). `readable`: every event read has its body (one skipped by its summary is not read: its
 * blob is not checked), each a snapshot or a snapshot patch that Postgres can parse (else the
 * caller rebuilds the bodies as a read would, and a missing one fails there). The first row also
 * carries the path's stored transitions (`$6`: its FieldsV1 form), so that one round trip reads all
 * the path needs; with `$7`, the rows of explaining's default chain come too (`in_tail`).
 */
const CHANGES = `
  WITH bodies AS MATERIALIZED (
    SELECT e.seq, e.event_type, e.source, e.observed_at, e.resource_version, e.body_encoding, e.body_hash, p.maybe,
           -- the rest of a stored event, for explaining's chain ($7) only
           CASE WHEN $7::boolean THEN e.xid::text END AS xid, CASE WHEN $7::boolean THEN e.api_version END AS api_version,
           CASE WHEN $7::boolean THEN encode(e.managed_fields_hash, 'hex') END AS mf, CASE WHEN $7::boolean THEN e.managed_fields_times END AS managed_fields_times,
           -- a patch whose paths' summary has none of the path's bits is not read
           CASE WHEN p.maybe THEN (SELECT b.bytes FROM blobs b WHERE b.hash = e.body_hash) END AS bytes
    FROM events e,
         LATERAL (SELECT e.body_encoding <> 'snapshot-patch' OR e.patch_paths IS NULL OR (e.patch_paths & $5::bigint) <> 0 AS maybe) p
    WHERE e.object_id = $1::bigint AND ($2::bigint IS NULL OR e.seq <= $2::bigint)
  ),
  -- with $7 only: explaining's default chain, materialized (computed once, not once per row that compares with it)
  tail AS MATERIALIZED (${tailOf('$7')}),
  -- a patch jsonb cannot hold (a NUL written as the escape backslash-u0000, a lone surrogate as backslash-udXXX:
  -- JSON.stringify writes no other backslash-ud; an escaped backslash before "u0000" or "ud" counts too): the caller folds
  checked AS (
    SELECT d.*, d.maybe AND d.body_encoding = 'snapshot-patch' AND d.bytes IS NOT NULL
                AND (position(decode('5c7530303030', 'hex') IN d.bytes) > 0 OR position(decode('5c7564', 'hex') IN d.bytes) > 0) AS unparsable
    FROM bodies d
  ),
  keyed AS (
    SELECT d.*,
           CASE WHEN NOT d.maybe OR d.body_encoding <> 'snapshot-patch' OR d.bytes IS NULL OR d.unparsable THEN '[]'::jsonb
                -- the text filter of a compact patch, on its bytes (not decoded nor parsed where no pattern matches)
                WHEN d.bytes LIKE '[{"op":"%'::bytea AND NOT d.bytes LIKE ANY (ARRAY(SELECT convert_to(n, 'UTF8') FROM unnest($4::text[]) n)) THEN '[]'::jsonb
                ELSE (SELECT CASE WHEN bool_or(x.op ? 'from') THEN convert_from(d.bytes, 'UTF8')::jsonb
                                  ELSE coalesce(jsonb_agg(x.op ORDER BY x.i) FILTER (
                                         WHERE x.op->>'path' = $3::text OR x.op->>'path' = ''
                                            OR starts_with(x.op->>'path', $3::text || '/') OR starts_with($3::text, (x.op->>'path') || '/')), '[]'::jsonb) END
                      FROM jsonb_array_elements(convert_from(d.bytes, 'UTF8')::jsonb) WITH ORDINALITY AS x(op, i))
           END AS reach,
           lag(d.event_type) OVER w AS previous_type
    FROM checked d WINDOW w AS (ORDER BY d.seq)
  ),
  marked AS (
    SELECT k.*, row_number() OVER w AS n,
           k.body_encoding <> 'snapshot-patch' OR k.event_type = 'DELETED' OR k.previous_type = 'DELETED'
             OR k.reach IS DISTINCT FROM lag(k.reach) OVER w AS changes,
           bool_and(k.body_encoding IN ('full', 'snapshot-patch') AND (NOT k.maybe OR k.bytes IS NOT NULL) AND NOT k.unparsable) OVER () AS readable,
           coalesce(k.seq >= tail.start, false) AS wanted,
           coalesce(k.seq >= tail.start OR k.seq = tail.snapshot, false) AS in_tail
    FROM keyed k, tail WINDOW w AS (ORDER BY k.seq)
  )
  SELECT m.seq::text AS seq, m.event_type, m.source, m.observed_at, m.resource_version, m.body_encoding, m.readable, m.changes, m.in_tail, m.wanted,
         CASE WHEN m.in_tail THEN m.xid END AS xid, CASE WHEN m.in_tail THEN m.api_version END AS api_version,
         CASE WHEN m.in_tail THEN m.mf END AS mf, CASE WHEN m.in_tail THEN m.managed_fields_times END AS managed_fields_times,
         convert_from(coalesce(m.bytes, (SELECT b.bytes FROM blobs b WHERE b.hash = m.body_hash)), 'UTF8') AS body,
         -- with the first row only: the path's stored transitions (fields_v1_path $6) up to the last event, oldest first
         CASE WHEN m.n = 1 THEN (${transitionsOf('$6')}) END AS transitions
  FROM marked m WHERE m.changes OR m.in_tail ORDER BY m.seq`;

/**
 * SQL: as {@link CHANGES}, from the summaries of the paths whose value changed at each event
 * (`events.change_paths`): the events of object `$1` up to sequence `$2` (all without) whose summary
 * has one of the path's bits (`$3`, `pathsMask`), each patch among them with the snapshot it is on
 * (`changes` false where that snapshot is not a change itself: it is read as the patches' base only),
 * and with `$5` the rows of explaining's default chain (`in_tail`). The first event is a change
 * whatever its summary: where retention dropped the events before it, its summary compares it with
 * one no longer stored (and where it is a patch, its snapshot is gone: the caller folds). No body is
 * read but those returned, none is parsed: one bit test per event. `complete`: every event has a
 * summary (else one row, its other columns null: the caller reads {@link CHANGES}). The first row
 * carries the path's stored transitions (`$4`: its FieldsV1 form).
 */
const SUMMARIZED_CHANGES = `
  WITH ev AS MATERIALIZED (
    SELECT e.seq, e.body_encoding = 'full' AS whole, e.change_paths
    FROM events e
    WHERE e.object_id = $1::bigint AND e.seq <= $2::bigint
  ),
  complete AS (SELECT coalesce(bool_and(ev.change_paths IS NOT NULL), false) AS complete FROM ev),
  tail AS MATERIALIZED (${tailOf('$5')}),
  marked AS MATERIALIZED (
    -- the first event kept is a change whatever its summary (retention may have dropped the one it was compared with)
    SELECT ev.seq, (ev.change_paths & $3::bigint) <> 0 OR ev.seq = (SELECT min(f.seq) FROM ev f) AS changes,
           max(ev.seq) FILTER (WHERE ev.whole) OVER (ORDER BY ev.seq) AS snapshot
    FROM ev, complete c WHERE c.complete
  ),
  -- the changes, the snapshots their patches are on, explaining's chain
  picked AS (
    SELECT k.seq, bool_or(k.changes) AS changes, row_number() OVER (ORDER BY k.seq) AS n
    FROM (SELECT m.seq, m.changes FROM marked m, tail t WHERE m.changes OR m.seq >= t.start OR m.seq = t.snapshot
          UNION ALL SELECT m.snapshot, false FROM marked m WHERE m.changes) k
    GROUP BY k.seq
  ),
  rows AS (
    SELECT e.seq, e.event_type, e.source, e.observed_at, e.resource_version, e.body_encoding, e.body_hash, p.changes, p.n,
           coalesce(e.seq >= t.start, false) AS wanted, coalesce(e.seq >= t.start OR e.seq = t.snapshot, false) AS in_tail,
           e.xid, e.api_version, e.managed_fields_hash, e.managed_fields_times
    FROM picked p JOIN events e ON e.object_id = $1::bigint AND e.seq = p.seq, tail t
  )
  SELECT c.complete, r.seq::text AS seq, r.event_type, r.source, r.observed_at, r.resource_version, r.body_encoding, r.changes, r.in_tail, r.wanted,
         bool_and(r.body_encoding IN ('full', 'snapshot-patch')) OVER () AS readable,
         CASE WHEN r.in_tail THEN r.xid::text END AS xid, CASE WHEN r.in_tail THEN r.api_version END AS api_version,
         CASE WHEN r.in_tail THEN encode(r.managed_fields_hash, 'hex') END AS mf, CASE WHEN r.in_tail THEN r.managed_fields_times END AS managed_fields_times,
         (SELECT convert_from(b.bytes, 'UTF8') FROM blobs b WHERE b.hash = r.body_hash) AS body,
         CASE WHEN r.n = 1 THEN (${transitionsOf('$4')}) END AS transitions
  FROM complete c LEFT JOIN rows r ON true
  ORDER BY r.seq`;

/**
 * The rows of {@link SUMMARIZED_CHANGES}: the events of an object up to `lastSeq` at which the value
 * of the path at pointer `at` can change, and the snapshots their patches are on; `null` where an
 * event has no summary of its changes (written before they were kept: read {@link CHANGES}).
 */
export async function readSummarizedChanges(
  dataSource: DataSource,
  objectId: string,
  lastSeq: string,
  path: { readonly fieldsV1Path: string; readonly at: string },
  withChain = false,
): Promise<ChangeRow[] | null> {
  const rows = await preparedQuery<ChangeRow & { complete: boolean }>(dataSource, 'summarized-path-value-changes', SUMMARIZED_CHANGES, [
    objectId, lastSeq, String(pathsMask(path.at)), path.fieldsV1Path, withChain,
  ]);
  return rows[0]?.complete && rows[0].seq !== null ? rows : null;
}

/** The rows of {@link CHANGES}: the events of an object up to `lastSeq` at which the value of the path `filter` stands for can change. */
export async function readPathValueChanges(
  dataSource: DataSource,
  objectId: string,
  lastSeq: string,
  path: { readonly fieldsV1Path: string; readonly filter: { at: string; needles: readonly string[] } },
  withChain = false,
): Promise<ChangeRow[]> {
  const { at, needles } = path.filter;
  // LIKE patterns: a needle anywhere, or a patch not written compact (whose needles would be spaced).
  const patterns = [...needles, '"path" ', '"path": '].map((n) => `%${n.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return preparedQuery<ChangeRow>(dataSource, 'path-value-changes', CHANGES, [objectId, lastSeq, at, patterns, String(pathsMask(at)), path.fieldsV1Path, withChain]);
}

/** What a path's history and explanation are made of, from the projection and the events at which the path's value can change. */
interface ProjectedPath {
  readonly p: ResolvedPath;
  readonly schema: SchemaUsed;
  /** Whether the object has only one event up to the bound, and the last one's sequence. */
  readonly single: boolean;
  readonly lastSeq: string;
  /** The events at which the value can change, oldest first, each with the value after it; every other event has the value of the one before. */
  readonly changes: EventValue[];
  /** The path's transitions up to the last event, oldest first, the first observation's included. */
  readonly transitions: FieldTransition[];
  /** The owned fields after the last event (explaining only). */
  readonly fields: EncodedOwnedFields | null;
  /**
   * Explaining only: the events it diffs where the path lost no owner and never left (the
   * last two that are not deletions; the last alone where it is a deletion or the only one), after
   * the snapshot the first one is built on, and the index of that first one.
   */
  readonly tail: { chain: StoredEventWithBody[]; from: number } | null;
}

/**
 * The {@link ProjectedPath} of object `objectId`'s events up to sequence `maxSeq` (all without).
 * `'no-event'`: the object has none by then; `null`: this cannot answer exactly (the projection
 * does not hold exactly those events, another schema folded them, a path whose value is not the
 * stored body's, bodies not stored as snapshots and snapshot patches): fold instead. `explaining`:
 * with what `explain` needs besides (the owned fields, the default chain).
 */
async function readProjectedPath(
  dataSource: DataSource,
  objectId: string,
  path: string,
  maxSeq: string | undefined,
  resolve: SchemaResolver,
  explaining: boolean,
): Promise<ProjectedPath | 'no-event' | null> {
  const [summary] = await preparedQuery<SummaryRow>(dataSource, 'projected-path-summary', SUMMARY, [objectId, maxSeq ?? null, explaining]);
  if (!summary) return 'no-event';
  const factsOf = (r: Pick<ChangeRow, 'seq' | 'event_type' | 'source' | 'observed_at' | 'resource_version'>): EventFacts =>
    eventFactsOf({
      seq: r.seq, cluster: summary.cluster, uid: summary.uid, objectId, group: summary.api_group, version: summary.version, kind: summary.kind,
      namespace: summary.namespace, name: summary.name, resourceVersion: r.resource_version, observedAt: r.observed_at, eventType: r.event_type, source: r.source,
    });
  const first = factsOf({ ...summary, seq: summary.first_seq });
  const p = resolveEventsPath([first], path, resolve);
  const schema = eventsSchema([first], resolve);
  if (!summary.usable || summary.baseline === null || (explaining && summary.fields === null)) return null;
  // Folded with another schema than the answer's (a new one stored, its re-projection not run yet): fold instead.
  if (recordedSchema(summary.schema, apiVersionOf(summary.api_group, summary.version), summary.kind, summary.cluster).digest !== schema.digest) return null;
  const filter = patchFilterOf(p.elements);
  if (filter === null) return null;
  const all =
    (summary.summarized ? await readSummarizedChanges(dataSource, objectId, summary.last_seq, { fieldsV1Path: p.fieldsV1Path, at: filter.at }, explaining) : null) ??
    (await readPathValueChanges(dataSource, objectId, summary.last_seq, { fieldsV1Path: p.fieldsV1Path, filter }, explaining));
  const stored = all[0]?.transitions ?? [];
  // An event read without its body, or a patch jsonb cannot hold: the fold answers (or gives the error).
  if (!all[0]?.readable || all.some((r) => r.body === null)) return null;
  // The changes, and the snapshots their patches are on (a snapshot that is no change is read as those patches' base only).
  const parts = all.filter((r) => r.changes || r.body_encoding === 'full');
  const values = pathValuesAlongChain(parts.map((r) => ({ encoding: r.body_encoding, json: r.body! })), p.elements);
  if (values === null) return null;
  const baseline = baselineTransitions(objectId, { fields: decodeOwnedFields(summary.baseline) }, { seq: String(first.seq), at: first.observedAt, source: first.source }, p.fieldsV1Path);
  return {
    p, schema, single: summary.single, lastSeq: summary.last_seq,
    changes: parts.flatMap((r, i) => (r.changes ? [{ event: factsOf(r), value: values[i] }] : [])),
    transitions: [...baseline, ...stored.map((t) => transitionFromRow({ ...t, at: new Date(t.at) }))],
    fields: summary.fields,
    tail: explaining ? tailChain(all, summary, objectId) : null,
  };
}

/** The rows of explaining's default chain as stored events with their bodies, and the index of its first event. */
function tailChain(rows: readonly ChangeRow[], summary: SummaryRow, objectId: string): { chain: StoredEventWithBody[]; from: number } {
  const tail = rows.filter((r) => r.in_tail);
  const chain = tail.map((r): StoredEventWithBody => ({
    seq: r.seq, xid: r.xid!, objectId, cluster: summary.cluster, group: summary.api_group, version: summary.version, uid: summary.uid, kind: summary.kind,
    namespace: summary.namespace, name: summary.name, resourceVersion: r.resource_version, apiVersion: r.api_version!, eventType: r.event_type, source: r.source,
    observedAt: r.observed_at, managedFieldsHash: r.mf!, managedFieldsTimes: r.managed_fields_times!, bodyEncoding: r.body_encoding, bodyJson: r.body!,
  }));
  return { chain, from: Math.max(0, tail.findIndex((r) => r.wanted)) };
}

/**
 * `GET /v1/objects/{id}/fields/history` from the projection ({@link readProjectedPath}): an object's
 * long history of changes elsewhere costs Postgres a scan of its events and this process nothing.
 */
export async function projectedFieldHistory(
  dataSource: DataSource,
  objectId: string,
  path: string,
  maxSeq: string | undefined,
  resolve: SchemaResolver,
): Promise<FieldHistoryView | 'no-event' | null> {
  const r = await readProjectedPath(dataSource, objectId, path, maxSeq, resolve, false);
  return r === null || r === 'no-event' ? r : fieldHistoryOfValues(r.p, r.changes, r.transitions, r.schema);
}

/**
 * `GET /v1/objects/{id}/explain` from the projection ({@link readProjectedPath}): the events are
 * rebuilt only from the one explaining starts to diff ({@link explainStepSeq}; the last alone
 * where the object was deleted), found without reading the others.
 */
export async function projectedExplanation(
  dataSource: DataSource,
  reader: EventReader,
  loader: ObservedEventLoader,
  objectId: string,
  path: string,
  maxSeq: string | undefined,
  resolve: SchemaResolver,
): Promise<FieldExplanationView | 'no-event' | null> {
  const r = await readProjectedPath(dataSource, objectId, path, maxSeq, resolve, true);
  if (r === null || r === 'no-event') return r;
  const last = r.changes.at(-1)!.event;
  const deleted = last.watchType === 'DELETED' && seqString(last.seq) === r.lastSeq;
  const step = r.single || deleted ? undefined : explainStepSeq(r.p, r.changes, r.transitions);
  // Without a step before the last event, the chain is the default one, read with the changes.
  const read = step === undefined || step === r.lastSeq ? r.tail! : await reader.objectChainFrom(objectId, { seq: step, before: true }, r.lastSeq);
  const chain = await loader.loadChain(read.chain, read.from);
  return explainFieldOfProjected(r.p, r.schema, chain, r.transitions, decodeOwnedFields(r.fields!), resolve);
}
