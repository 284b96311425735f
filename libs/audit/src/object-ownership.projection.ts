import {
  diffDecodedSnapshots,
  sameOwnership,
  entryIdentity,
  FieldSet,
  pathToHuman,
  readSnapshot,
  SsaEngineError,
  type DecodedSnapshot,
  type IndexedEntry,
  type ResolvedType,
  type ManagerRef,
  type Operation,
  type Path,
  type SnapshotDiff,
  type Transition,
  type TransitionType,
  type Value,
  valueEquals,
} from '../../ssa-engine/src/index.js';
import { AuditError } from './audit.error.js';
import type { FieldOwner, ObservedEvent, Since } from './observed-event.types.js';
import { apiVersionOf, defaultSchemaResolver, schemaUsed, type SchemaResolver, type SchemaUsed } from './schema-resolver.port.js';
import { compareSeq, isRfc3339, seqString, sortEvents } from './seq.util.js';
import { valueAt } from './value-at.util.js';

/** One owned path of the object and its direct owners (the members of their managedFields sets). */
export interface OwnedField {
  /** Human form (`.spec.containers[name="nginx"].image`). */
  readonly path: string;
  /** FieldsV1 dotted form (`f:spec.f:containers.k:{"name":"nginx"}.f:image`). */
  readonly fieldsV1Path: string;
  /** The FieldsV1 keys of the path, one per element (unambiguous, unlike the dotted form). */
  readonly segments: readonly string[];
  /** In `metadata.managedFields` order. */
  readonly owners: readonly FieldOwner[];
}

/**
 * What happened to a field that a finding may need later (kept in the state, so findings are
 * answered from states alone):
 * - `taken-from-applier`: an Update or another Apply took the field from an Apply manager, which
 *   will conflict on its next apply unless it drops the field or forces; cleared when that applier
 *   writes again or owns the field again;
 * - `forced`: the latest forced takeover of the field;
 * - `released-kept`: an applier stopped applying the field and other owners kept it alive.
 */
export type FieldMarkKind = 'taken-from-applier' | 'forced' | 'released-kept';

/** A mark on one path; see `FieldMarkKind`. */
export interface FieldMark {
  readonly kind: FieldMarkKind;
  readonly path: string;
  readonly fieldsV1Path: string;
  /** Who acted: the taker (taken-from-applier, forced) or the releaser (released-kept). */
  readonly manager: ManagerRef;
  /** Who lost the field (the Apply managers for `taken-from-applier`). */
  readonly from: readonly ManagerRef[];
  /** Owners right after. */
  readonly owners: readonly ManagerRef[];
  readonly seq: string;
  readonly at: string;
}

/**
 * The ownership projection of one object: its latest snapshot, every owned path with its owners
 * and since when, and the marks findings need. Plain JSON data (store it as `jsonb`); folding the
 * same events gives a deep-equal state.
 */
export interface ObjectOwnershipState {
  readonly objectId: string;
  readonly cluster: string;
  readonly uid: string;
  readonly group: string;
  readonly version: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string | null;
  readonly name: string;
  readonly deleted: boolean;
  readonly resourceVersion: string;
  readonly firstSeq: string;
  readonly firstAt: string;
  readonly lastSeq: string;
  readonly lastAt: string;
  /** Events folded (skipped and duplicate events excluded). */
  readonly eventCount: number;
  /** The latest observed body, `metadata.managedFields` included (the last live one once deleted). */
  readonly object: unknown;
  /** Owned paths in canonical path order (members before children). Empty once deleted. */
  readonly fields: readonly OwnedField[];
  readonly marks: readonly FieldMark[];
  /** The latest event the engine could not read (malformed managedFields): it was skipped. */
  readonly lastError: { readonly seq: string; readonly code: string; readonly message: string } | null;
  /** The schema the latest event was folded with (a replay is due where the catalog's choice differs). */
  readonly schema: SchemaUsed;
}

/** One ownership transition of one field, as the projector stores it and the API returns it. */
export interface FieldTransition {
  readonly seq: string;
  readonly at: string;
  readonly objectId: string;
  readonly type: TransitionType;
  readonly path: string;
  readonly fieldsV1Path: string;
  /** Who acted (see the engine's `Transition.manager`); `null` when the writer is unknown. */
  readonly manager: string | null;
  readonly operation: Operation | null;
  readonly subresource: string | null;
  readonly apiVersion: string | null;
  /** Owners that lost the field in this transition. */
  readonly from: readonly ManagerRef[];
  /** Owners right after (for `kept`, the owners keeping it alive). */
  readonly owners: readonly ManagerRef[];
  readonly valueChanged: boolean;
  /** Derived from a relist or gap fill, not from a live watch event: intermediate writes may be missing. */
  readonly reconstructed: boolean;
  /** The engine's note codes qualifying this transition (`force-inferred`, …). */
  readonly notes: readonly string[];
}

/** The result of folding one event. */
export interface OwnershipEvolution {
  readonly state: ObjectOwnershipState;
  readonly transitions: readonly FieldTransition[];
  /** False for a duplicate or older event (no-op) and for a skipped one. */
  readonly applied: boolean;
  /** The writer the engine recognised, and its notes (plain data), for logs and the event stream. */
  readonly writer: ManagerRef | null;
  readonly notes: SnapshotDiff['notes'];
}

const NO_NOTES: SnapshotDiff['notes'] = [];

/** The identity key of a manager ref (apiVersion counts only for Update, as in managedFields). */
export function identityOf(m: ManagerRef): string {
  return entryIdentity(m);
}

/** A manager ref as plain data in `ManagerRef` key order (owners carry more: `since`, …). */
export function ref(m: ManagerRef): ManagerRef {
  return { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, subresource: m.subresource };
}

function validate(e: ObservedEvent): { seq: string; at: string } {
  if (typeof e !== 'object' || e === null) throw new AuditError('invalid-event', 'an event must be an object', 'event');
  const seq = seqString(e.seq, 'event.seq');
  if (!isRfc3339(e.observedAt)) throw new AuditError('invalid-event', `event ${seq}: observedAt must be an RFC 3339 time`, 'event.observedAt');
  if (e.watchType !== 'ADDED' && e.watchType !== 'MODIFIED' && e.watchType !== 'DELETED') {
    throw new AuditError('invalid-event', `event ${seq}: watchType must be ADDED, MODIFIED or DELETED`, 'event.watchType');
  }
  if (e.source !== 'watch' && e.source !== 'relist' && e.source !== 'gap-fill') {
    throw new AuditError('invalid-event', `event ${seq}: source must be watch, relist or gap-fill`, 'event.source');
  }
  for (const k of ['objectId', 'cluster', 'uid', 'version', 'kind', 'name'] as const) {
    if (typeof e[k] !== 'string' || e[k] === '') throw new AuditError('invalid-event', `event ${seq}: ${k} must be a non-empty string`, `event.${k}`);
  }
  if (typeof e.group !== 'string') throw new AuditError('invalid-event', `event ${seq}: group must be a string`, 'event.group');
  return { seq, at: e.observedAt };
}

/**
 * Observed objects decoded by the engine, by identity: the state a fold produces keeps the event's
 * object, so the next event's `before` is decoded once, not again (a state read back from storage
 * is a new object and decoded anew). Weak: an object no longer referenced takes its entry with it.
 */
const DECODED = new WeakMap<object, { readonly type: ResolvedType; readonly snapshot: DecodedSnapshot }>();

export function decodedSnapshot(object: unknown, type: ResolvedType): DecodedSnapshot {
  const cacheable = typeof object === 'object' && object !== null;
  const hit = cacheable ? DECODED.get(object) : undefined;
  if (hit && hit.type === type) return hit.snapshot;
  const snapshot = readSnapshot({ object, type });
  if (cacheable) DECODED.set(object, { type, snapshot });
  return snapshot;
}

/** The segments of a FieldsV1 path, joined: the dotted form. */
function dotted(p: Path): string {
  return p.map((pe) => pe.str).join('.');
}

/**
 * Owned paths of a decoded snapshot with their owners; `since` carried over from `prev` for every
 * (path, identity) that already owned it, else the current event.
 */
function ownedFields(a: DecodedSnapshot, prev: readonly OwnedField[], now: Since, first: boolean): OwnedField[] {
  const before = new Map<string, { field: OwnedField; owners: Map<string, FieldOwner> }>();
  for (const f of prev) before.set(f.fieldsV1Path, { field: f, owners: new Map(f.owners.map((o) => [identityOf(o), o])) });
  const entries = [...a.entries.values()].sort((x, y) => x.index - y.index);
  let union = FieldSet.EMPTY;
  for (const e of entries) union = union.union(e.set);
  const out: OwnedField[] = [];
  // An entry's owners that start owning now are all alike: one object each, shared by its fields.
  const fresh = new Map<string, FieldOwner>();
  const freshOwner = (e: IndexedEntry): FieldOwner => {
    let o = fresh.get(e.identity);
    if (!o) fresh.set(e.identity, (o = { ...ref(e), since: now, sinceFirstObservation: first }));
    return o;
  };
  for (const p of union.paths()) {
    const key = dotted(p);
    const had = before.get(key);
    const owners: FieldOwner[] = [];
    let same = had !== undefined;
    for (const e of entries) {
      if (!e.set.has(p)) continue;
      const old = had?.owners.get(e.identity);
      const i = owners.length;
      if (old && old.apiVersion === e.apiVersion && had!.field.owners[i] === old) owners.push(old);
      else {
        same = false;
        owners.push(old ? { ...ref(e), since: old.since, sinceFirstObservation: old.sinceFirstObservation } : freshOwner(e));
      }
    }
    // Unchanged owners: keep the previous object (cheaper, and the state shares structure).
    if (same && had!.field.owners.length === owners.length) out.push(had!.field);
    else out.push({ path: had ? had.field.path : pathToHuman(p), fieldsV1Path: key, segments: had ? had.field.segments : p.map((pe) => pe.str), owners });
  }
  return out;
}

/**
 * Note on a transition found by a relist after a gap in the watch (a lost queue, 410 Gone, a cluster
 * that went back in time or was replaced): the writes in between are not known, only their result.
 */
export const WATCH_GAP_NOTE = 'watch-gap';

export const gapNotes = (source: ObservedEvent['source'], notes: readonly string[]): string[] => (source === 'gap-fill' ? [...notes, WATCH_GAP_NOTE] : [...notes]);

function toFieldTransition(t: Transition, e: ObservedEvent, seq: string): FieldTransition {
  return {
    seq,
    at: e.observedAt,
    objectId: e.objectId,
    type: t.type,
    path: t.path,
    fieldsV1Path: t.fieldsV1,
    manager: t.manager?.manager ?? null,
    operation: t.manager?.operation ?? null,
    subresource: t.manager ? t.manager.subresource : null,
    apiVersion: t.manager?.apiVersion ?? null,
    from: t.from.map(ref),
    owners: t.owners.map(ref),
    valueChanged: t.valueChanged,
    reconstructed: e.source !== 'watch',
    notes: gapNotes(e.source, t.notes),
  };
}

function markKey(m: Pick<FieldMark, 'kind' | 'fieldsV1Path' | 'manager'>): string {
  return `${m.kind}\u0000${m.fieldsV1Path}\u0000${m.kind === 'released-kept' ? identityOf(m.manager) : ''}`;
}

/** The acting manager of a transition as a ref, `null` when unknown. */
export function transitionManager(t: FieldTransition): ManagerRef | null {
  return t.manager === null ? null : { manager: t.manager, operation: t.operation!, apiVersion: t.apiVersion ?? '', subresource: t.subresource ?? '' };
}

/**
 * The Apply identity whose write an event's values prove, when the engine names no writer. An
 * entry's time has whole seconds: an apply in the same second as its previous write that changes
 * only values leaves managedFields as they were. A changed leaf value that one Apply identity owns
 * alone, before and after (no transition on it), was written by that identity: anybody else
 * changing it would have become an owner (an Update takes it, another Apply shares or forces it).
 * `null` when no such value changed, or when such values point at more than one identity.
 */
function applierByValues(before: unknown, after: DecodedSnapshot, fields: readonly OwnedField[], ts: readonly FieldTransition[]): ManagerRef | null {
  const touched = new Set(ts.map((t) => t.fieldsV1Path));
  const parents = new Set<string>();
  for (const f of fields) for (let i = 1; i < f.segments.length; i++) parents.add(f.segments.slice(0, i).join('.'));
  const byKey = new Map(fields.map((f) => [f.fieldsV1Path, f]));
  const same = (x: Value | undefined, y: Value | undefined): boolean => (x === undefined || y === undefined ? x === y : valueEquals(x, y));
  const found = new Map<string, ManagerRef>();
  for (const e of after.entries.values()) {
    if (e.operation !== 'Apply') continue;
    for (const p of e.set.paths()) {
      const key = dotted(p);
      if (byKey.get(key)?.owners.length !== 1 || parents.has(key) || touched.has(key)) continue;
      if (!same(valueAt(before, p), valueAt(after.object, p))) {
        found.set(e.identity, ref(e));
        break;
      }
    }
  }
  return found.size === 1 ? [...found.values()][0]! : null;
}

function tookFromApplier(s: ObjectOwnershipState): boolean {
  return s.marks.some((m) => m.kind === 'taken-from-applier');
}

/** Marks after one event's transitions (see `FieldMarkKind`): `prev` itself when they leave it as it was (what stored findings compare). */
function nextMarks(prev: readonly FieldMark[], ts: readonly FieldTransition[], writer: ManagerRef | null): readonly FieldMark[] {
  if (ts.length === 0 && (!writer || writer.operation !== 'Apply' || prev.length === 0)) return prev;
  const marks = new Map<string, FieldMark>(prev.map((m) => [markKey(m), m]));
  let changed = false;
  const drop = (pred: (m: FieldMark) => boolean): void => {
    for (const [k, m] of marks) {
      if (!pred(m)) continue;
      marks.delete(k);
      changed = true;
    }
  };
  // An applier that writes again has dropped the taken fields from its manifest (or forced them back).
  if (writer && writer.operation === 'Apply') {
    const w = identityOf(writer);
    drop((m) => m.kind === 'taken-from-applier' && m.from.some((f) => identityOf(f) === w));
  }
  for (const t of ts) {
    const by = transitionManager(t);
    const put = (kind: FieldMarkKind, manager: ManagerRef, from: readonly ManagerRef[]): void => {
      const m: FieldMark = { kind, path: t.path, fieldsV1Path: t.fieldsV1Path, manager, from, owners: t.owners, seq: t.seq, at: t.at };
      const k = markKey(m);
      marks.delete(k); // re-insert: insertion order stays event order
      marks.set(k, m);
      changed = true;
    };
    switch (t.type) {
      case 'pruned':
      case 'removed':
        drop((m) => m.fieldsV1Path === t.fieldsV1Path);
        break;
      case 'taken':
      case 'forced': {
        const appliers = t.from.filter((f) => f.operation === 'Apply');
        drop((m) => m.fieldsV1Path === t.fieldsV1Path && m.kind !== 'forced');
        if (by && appliers.length > 0) put('taken-from-applier', by, appliers);
        if (by && t.type === 'forced') put('forced', by, t.from);
        break;
      }
      case 'acquired':
      case 'shared':
        if (by) {
          const id = identityOf(by);
          drop(
            (m) =>
              m.fieldsV1Path === t.fieldsV1Path &&
              ((m.kind === 'taken-from-applier' && m.from.some((f) => identityOf(f) === id)) || (m.kind === 'released-kept' && identityOf(m.manager) === id)),
          );
        }
        break;
      case 'kept':
        if (by) put('released-kept', by, t.from);
        break;
      case 'orphaned':
        drop((m) => m.fieldsV1Path === t.fieldsV1Path && m.kind === 'released-kept');
        break;
      default:
        assertUnreachable(t.type);
    }
  }
  return changed ? [...marks.values()] : prev;
}

/**
 * Folds one event into the ownership projection of its object (pure, deterministic). `state` is
 * `undefined` before the first event. An event whose sequence is not after `state.lastSeq` is a
 * no-op (`applied: false`), so redelivery is harmless. `DELETED` removes every owner (`removed`
 * transitions). An event whose managedFields the engine cannot read is skipped and recorded in
 * `state.lastError`. Throws `AuditError` `invalid-event` or `object-mismatch`.
 * `options.baselineTransitions: false`: the first event (`state` undefined) reports no transitions
 * (a projection stores that ownership as its baseline, not as transitions; state and notes are the same).
 */
export function evolveObjectOwnership(
  state: ObjectOwnershipState | undefined,
  event: ObservedEvent,
  schemaResolver: SchemaResolver = defaultSchemaResolver,
  options: { readonly baselineTransitions?: boolean } = {},
): OwnershipEvolution {
  const { seq, at } = validate(event);
  if (state && state.objectId !== event.objectId) {
    throw new AuditError('object-mismatch', `event ${seq} is of object ${event.objectId}, not ${state.objectId}`, 'event.objectId');
  }
  if (state && compareSeq(seq, state.lastSeq) <= 0) return { state, transitions: [], applied: false, writer: null, notes: NO_NOTES };
  const apiVersion = apiVersionOf(event.group, event.version);
  const choice = schemaResolver(apiVersion, event.kind, event.cluster);
  const type = choice.type;
  const now: Since = { seq, at };
  const base = {
    objectId: event.objectId,
    cluster: event.cluster,
    uid: event.uid,
    group: event.group,
    version: event.version,
    apiVersion,
    kind: event.kind,
    namespace: event.namespace ?? null,
    name: event.name,
    resourceVersion: event.resourceVersion,
    firstSeq: state?.firstSeq ?? seq,
    firstAt: state?.firstAt ?? at,
    lastSeq: seq,
    lastAt: at,
    schema: state && sameSchema(state.schema, choice) ? state.schema : schemaUsed(choice),
  };

  if (event.watchType === 'DELETED') {
    const transitions: FieldTransition[] = (state && !state.deleted ? state.fields : []).map((f) => ({
      seq,
      at,
      objectId: event.objectId,
      type: 'removed',
      path: f.path,
      fieldsV1Path: f.fieldsV1Path,
      manager: null,
      operation: null,
      subresource: null,
      apiVersion: null,
      from: f.owners.map(ref),
      owners: [],
      valueChanged: true,
      reconstructed: event.source !== 'watch',
      notes: gapNotes(event.source, ['object-deleted']),
    }));
    const next: ObjectOwnershipState = {
      ...base,
      deleted: true,
      eventCount: (state?.eventCount ?? 0) + 1,
      object: state?.object ?? event.object ?? null,
      fields: [],
      marks: [],
      lastError: state?.lastError ?? null,
    };
    return { state: next, transitions, applied: true, writer: null, notes: NO_NOTES };
  }

  const live = state && !state.deleted ? state : undefined;
  let diff: SnapshotDiff;
  let decoded: DecodedSnapshot;
  let previous: DecodedSnapshot | undefined;
  try {
    decoded = decodedSnapshot(event.object, type);
    previous = live ? decodedSnapshot(live.object, type) : undefined;
    diff = diffDecodedSnapshots(previous, decoded, { firstObservationTransitions: state !== undefined || (options.baselineTransitions ?? true) });
  } catch (e) {
    if (!(e instanceof SsaEngineError)) throw e;
    const skipped: ObjectOwnershipState = {
      ...(state ?? { ...base, deleted: false, eventCount: 0, object: null, fields: [], marks: [] }),
      schema: base.schema,
      lastSeq: seq,
      lastAt: at,
      lastError: { seq, code: e.code, message: e.message },
    };
    return { state: skipped, transitions: [], applied: false, writer: null, notes: NO_NOTES };
  }
  const transitions = diff.transitions.map((t) => toFieldTransition(t, event, seq));
  // The same entries owning the same sets in the same order: every owned field stays as it was.
  const fields = live && previous && sameOwnership(previous, decoded) ? live.fields : ownedFields(decoded, live?.fields ?? [], now, live === undefined);
  const next: ObjectOwnershipState = {
    ...base,
    deleted: false,
    eventCount: (state?.eventCount ?? 0) + 1,
    object: event.object,
    fields,
    marks: nextMarks(live?.marks ?? [], transitions, diff.writer?.manager ?? (live && tookFromApplier(live) ? applierByValues(live.object, decoded, fields, transitions) : null)),
    lastError: state?.lastError ?? null,
  };
  return { state: next, transitions, applied: true, writer: diff.writer ? ref(diff.writer.manager) : null, notes: diff.notes };
}

const sameSchema = (a: SchemaUsed, b: SchemaUsed): boolean => a.digest === b.digest && a.source === b.source && a.typeName === b.typeName;

function assertUnreachable(x: never): never {
  throw new Error(`unreachable: ${JSON.stringify(x)}`);
}

/** The result of folding a list of events. */
export interface OwnershipReplay {
  readonly state: ObjectOwnershipState | undefined;
  /** Every transition, oldest first. */
  readonly transitions: readonly FieldTransition[];
}

/**
 * Folds the events of one object in sequence order (they are sorted first) from `initial`
 * (default: nothing). Replaying the same events always gives a deep-equal result.
 */
export function foldObjectOwnership(
  events: readonly ObservedEvent[],
  schemaResolver: SchemaResolver = defaultSchemaResolver,
  initial?: ObjectOwnershipState,
): OwnershipReplay {
  let state = initial;
  const transitions: FieldTransition[] = [];
  for (const e of sortEvents(events)) {
    const r = evolveObjectOwnership(state, e, schemaResolver);
    state = r.state;
    transitions.push(...r.transitions);
  }
  return { state, transitions };
}
