import { pathToHuman, valueEquals, type Value } from '../../ssa-engine/src/index.js';
import { resolvePath } from './field-path.util.js';
import type { ObservedEvent } from './observed-event.types.js';
import { evolveObjectOwnership, type FieldTransition, type ObjectOwnershipState } from './object-ownership.projection.js';
import { apiVersionOf, defaultSchemaResolver, type SchemaResolver } from './schema-resolver.port.js';
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
}

function firstApiVersion(events: readonly ObservedEvent[]): { apiVersion: string; kind: string; cluster: string } {
  const e = events[0]!;
  return { apiVersion: apiVersionOf(e.group, e.version), kind: e.kind, cluster: e.cluster };
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
  if (events.length === 0) {
    const p = resolvePath(path);
    return { path: pathToHuman(p.elements), fieldsV1Path: p.fieldsV1Path, transitions: [], values: [] };
  }
  const g = firstApiVersion(events);
  const p = resolvePath(path, schemaResolver(g.apiVersion, g.kind, g.cluster));
  const transitions: FieldHistoryTransition[] = [];
  const values: FieldValueChange[] = [];
  let last: { present: boolean; value: Value | null } | undefined;
  replayEvents(events, schemaResolver, (e, _s, ts, applied) => {
    for (const t of ts) {
      if (t.fieldsV1Path !== p.fieldsV1Path) continue;
      const { objectId: _o, path: _p, fieldsV1Path: _f, ...rest } = t;
      transitions.push(rest);
    }
    if (!applied) return;
    const v = e.watchType === 'DELETED' ? undefined : valueAt(e.object, p.elements);
    const cur = { present: v !== undefined, value: v === undefined ? null : v };
    if (last && last.present === cur.present && valueEquals(last.value, cur.value)) return;
    if (!last && !cur.present) return;
    last = cur;
    values.push({ at: e.observedAt, seq: seqString(e.seq), ...cur, reconstructed: e.source !== 'watch' });
  });
  return { path: pathToHuman(p.elements), fieldsV1Path: p.fieldsV1Path, transitions, values };
}

/** `GET /v1/objects/{id}/transitions`: every transition of the object, newest first. */
export function objectTransitions(events: readonly ObservedEvent[], schemaResolver: SchemaResolver = defaultSchemaResolver): FieldTransition[] {
  const groups: FieldTransition[][] = [];
  replayEvents(events, schemaResolver, (_e, _s, ts) => {
    if (ts.length > 0) groups.push([...ts]);
  });
  // Newest event first; within one event the engine's canonical path order.
  return groups.reverse().flat();
}

