import { pathToHuman, valueEquals, type Value } from '../../ssa-engine/src/index.js';
import { eventsSchema, resolveEventsPath, type ResolvedPath } from './field-path.util.js';
import type { EventFacts, ObservedEvent } from './observed-event.types.js';
import { evolveObjectOwnership, type FieldTransition, type ObjectOwnershipState } from './object-ownership.projection.js';
import { defaultSchemaResolver, type SchemaResolver, type SchemaUsed } from './schema-resolver.port.js';
import { seqString, sortEvents } from './seq.util.js';
import { valueAt } from './value-at.util.js';

/** One transition in a field's history: a `FieldTransition` without the object and path it is about. */
export type FieldHistoryTransition = Omit<FieldTransition, 'objectId' | 'path' | 'fieldsV1Path'>;

/** One value of a field, recorded when it changed. */
export interface FieldValueChange {
  readonly at: string;
  readonly seq: string;
  readonly present: boolean;
  /** `null` when absent. */
  readonly value: Value | null;
  readonly reconstructed: boolean;
}

/** `GET /v1/objects/{id}/fields/history?path=` */
export interface FieldHistoryView {
  readonly path: string;
  readonly fieldsV1Path: string;
  /** Oldest first. */
  readonly transitions: readonly FieldHistoryTransition[];
  /** Oldest first, one entry per change (the first observation included). */
  readonly values: readonly FieldValueChange[];
  /** The schema the answer was computed with. */
  readonly schema: SchemaUsed;
}

/** Folds the events (sorted) and calls `each` after every event. */
export function replayEvents(
  events: readonly ObservedEvent[],
  schemaResolver: SchemaResolver,
  each: (e: ObservedEvent, state: ObjectOwnershipState, transitions: readonly FieldTransition[], applied: boolean) => void,
): ObjectOwnershipState | undefined {
  let state: ObjectOwnershipState | undefined;
  for (const e of sortEvents(events)) {
    const r = evolveObjectOwnership(state, e, schemaResolver);
    state = r.state;
    each(e, r.state, r.transitions, r.applied);
  }
  return state;
}

/**
 * `GET /v1/objects/{id}/fields/history?path=`: the ownership transitions of `path` (exactly that
 * path) and its values whenever they changed, over the object's events (pass `eventsUpTo(…)` to
 * answer as of a moment). Throws `AuditError('invalid-path')`.
 */
export function fieldHistory(events: readonly ObservedEvent[], path: string, schemaResolver: SchemaResolver = defaultSchemaResolver): FieldHistoryView {
  const p = resolveEventsPath(events, path, schemaResolver);
  const transitions: FieldTransition[] = [];
  const applied: ObservedEvent[] = [];
  replayEvents(events, schemaResolver, (e, _s, ts, ok) => {
    for (const t of ts) if (t.fieldsV1Path === p.fieldsV1Path) transitions.push(t);
    if (ok) applied.push(e);
  });
  return historyView(p, transitions, applied.map((e) => ({ event: e, value: valueAt(e.object, p.elements) })), eventsSchema(events, schemaResolver));
}

/**
 * `fieldHistory` from transitions already folded (the projection's, oldest first; those of other paths are left out)
 * and the value of the path after each of the object's events (`values`, oldest first, every event
 * applied by the fold: none unreadable), with the path resolved and the schema chosen from the
 * events' facts ({@link resolveEventsPath}, {@link eventsSchema}): no fold here, and no body read
 * where the caller knows the value did not change.
 */
export function fieldHistoryOfValues(
  p: ResolvedPath,
  values: readonly EventValue[],
  transitions: readonly FieldTransition[],
  schema: SchemaUsed,
): FieldHistoryView {
  return historyView(p, transitions.filter((t) => t.fieldsV1Path === p.fieldsV1Path), values, schema);
}

/** An event's facts and the value of one path in its object (`undefined`: absent). */
export interface EventValue {
  readonly event: EventFacts;
  readonly value: Value | undefined;
}

/** The view: the path's transitions, and its value after every applied event (oldest first) whenever it changed. */
function historyView(p: ResolvedPath, pathTransitions: readonly FieldTransition[], applied: readonly EventValue[], schema: SchemaUsed): FieldHistoryView {
  const transitions = pathTransitions.map(({ objectId: _o, path: _p, fieldsV1Path: _f, ...rest }): FieldHistoryTransition => rest);
  const values: FieldValueChange[] = [];
  let last: { present: boolean; value: Value | null } | undefined;
  for (const { event: e, value } of applied) {
    const v = e.watchType === 'DELETED' ? undefined : value;
    const cur = { present: v !== undefined, value: v === undefined ? null : v };
    if (last && last.present === cur.present && valueEquals(last.value, cur.value)) continue;
    if (!last && !cur.present) continue;
    last = cur;
    values.push({ at: e.observedAt, seq: seqString(e.seq), ...cur, reconstructed: e.source !== 'watch' });
  }
  return { path: pathToHuman(p.elements), fieldsV1Path: p.fieldsV1Path, transitions, values, schema };
}

/** A transition with its place among its event's transitions (the `ordinal` the projection stores it with). */
export interface PlacedTransition {
  readonly transition: FieldTransition;
  readonly ordinal: number;
}

/**
 * `GET /v1/objects/{id}/transitions` from a fold of `events` (pass `eventsUpTo(…)` to answer as of a
 * moment): every transition, the first observation's `acquired` ones included, newest first — by
 * event, and within an event the last first — the order the stored transitions are read in.
 */
export function objectTransitions(events: readonly ObservedEvent[], schemaResolver: SchemaResolver = defaultSchemaResolver): PlacedTransition[] {
  const placed: PlacedTransition[] = [];
  replayEvents(events, schemaResolver, (_e, _s, ts) => {
    ts.forEach((transition, ordinal) => placed.push({ transition, ordinal }));
  });
  return placed.reverse();
}
