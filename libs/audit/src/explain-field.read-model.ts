import { otherVersionOwnerNotes } from './other-version.notes.js';
import {
  explain,
  pathToHuman,
  type CauseCode,
  type JsonPatchOp,
  type ManagerRef,
  type OwnershipVia,
  type RemedyKind,
  type Snapshot,
  type UnknownReason,
} from '../../ssa-engine/src/index.js';
import { eventsSchema, resolveEventsPath, type ResolvedPath } from './field-path.util.js';
import { replayEvents, type EventValue } from './field-history.read-model.js';
import { ownerSince } from './field-owners.read-model.js';
import type { ObservedEvent, Since } from './observed-event.types.js';
import { identityOf, transitionManager, type FieldTransition, type ObjectOwnershipState, type OwnedField } from './object-ownership.projection.js';
import { compareSeq, seqString, sortEvents } from './seq.util.js';
import { apiVersionOf, defaultSchemaResolver, type SchemaResolver, type SchemaUsed } from './schema-resolver.port.js';
import { valueAt } from './value-at.util.js';

/** Who released (or deleted) the field, and when. */
export interface ReleasedBy extends ManagerRef {
  readonly at: string | null;
  readonly seq: string | null;
}

/** An owner keeping the field. */
export interface RemainingOwner extends ManagerRef {
  /** `null` only when the projection has no record of it (should not happen). */
  readonly since: Since | null;
  readonly via: OwnershipVia;
  /** Position in the current `metadata.managedFields` list (what the JSON patch remedy addresses). */
  readonly index: number;
}

/** A remedy: one line for people and the exact command(s). */
export interface RemedyView {
  readonly kind: RemedyKind;
  readonly summary: string;
  /** The commands joined by a newline (run in order); `null` when the remedy is refused (see `warning`). */
  readonly command: string | null;
  readonly commands: readonly string[];
  readonly patch: readonly JsonPatchOp[] | null;
  readonly warning: string | null;
}

/** `GET /v1/objects/{id}/explain?path=` */
export interface FieldExplanationView {
  readonly path: string;
  readonly fieldsV1Path: string;
  readonly present: boolean;
  /** The engine's stable cause code. */
  readonly cause: CauseCode;
  /**
   * `cause` followed by the broader codes it implies: `client-side-apply-leftover` and
   * `update-manager-never-releases` are both kinds of `co-owned-after-release`.
   */
  readonly causes: readonly CauseCode[];
  readonly unknownReason: UnknownReason | null;
  readonly message: string;
  readonly releasedBy: ReleasedBy | null;
  readonly remainingOwners: readonly RemainingOwner[];
  readonly remedies: readonly RemedyView[];
  /** The engine's notes (codes and messages). */
  readonly notes: readonly { readonly code: string; readonly message: string }[];
  readonly objectDeleted: boolean;
  /** The schema the answer was computed with. */
  readonly schema: SchemaUsed;
}

const BROADER: Partial<Record<CauseCode, readonly CauseCode[]>> = {
  'client-side-apply-leftover': ['co-owned-after-release'],
  'update-manager-never-releases': ['co-owned-after-release'],
};

const RELEASES: ReadonlySet<string> = new Set(['kept', 'orphaned', 'pruned', 'removed']);

/** Where the path last lost an owner or left the object, followed snapshot by snapshot. */
interface Steps {
  /** The latest snapshot in which the path lost an owner or left the object. */
  lastStep: number | undefined;
  wasPresent: boolean;
}

/** Snapshot `index` (0 the first) into `s`: the path `present` in it, `lost` an owner at its event. */
function track(s: Steps, index: number, present: boolean, lost: boolean): void {
  if (index > 0 && (lost || (s.wasPresent && !present))) s.lastStep = index;
  s.wasPresent = present;
}

/** Whether one of `ts` (an event's transitions) takes an owner from the path. */
const losesOwner = (p: ResolvedPath, t: FieldTransition): boolean => t.fieldsV1Path === p.fieldsV1Path && t.from.length > 0;

/** What explaining needs of the object's events: walked by a fold, or from the projection. */
interface Walk extends Steps {
  readonly transitions: FieldTransition[];
  readonly snapshots: Snapshot[];
  deleted: boolean;
  type: Snapshot['type'] | undefined;
}

/** One applied event into the walk (its transitions already added). */
function step(w: Walk, p: ResolvedPath, e: ObservedEvent, type: Snapshot['type'], ts: readonly FieldTransition[]): void {
  w.type = type;
  w.deleted = e.watchType === 'DELETED';
  if (w.deleted) return;
  w.snapshots.push({ object: e.object, type });
  track(w, w.snapshots.length - 1, valueAt(e.object, p.elements) !== undefined, ts.some((t) => losesOwner(p, t)));
}

const newWalk = (): Walk => ({ transitions: [], snapshots: [], lastStep: undefined, deleted: false, type: undefined, wasPresent: false });

/**
 * `GET /v1/objects/{id}/explain?path=`: why `path` is still there or why it is gone, over the
 * object's events (pass `eventsUpTo(…)` for an earlier moment), with the engine's stable cause
 * codes and remedies. Throws `AuditError('invalid-path')`.
 */
export function explainField(events: readonly ObservedEvent[], path: string, schemaResolver: SchemaResolver = defaultSchemaResolver): FieldExplanationView {
  const p = resolveEventsPath(events, path, schemaResolver);
  const w = newWalk();
  const state: ObjectOwnershipState | undefined = replayEvents(events, schemaResolver, (e, s, ts, applied) => {
    w.transitions.push(...ts);
    if (applied) step(w, p, e, schemaResolver(s.apiVersion, s.kind, s.cluster).type, ts);
  });
  return explainWalk(p, w, state, eventsSchema(events, schemaResolver));
}

/**
 * Where `explainFieldOfProjected` must start walking the object's events: the index in `values` (every
 * event's facts and the path's value then, oldest first, every one applied) of the first event whose
 * object it needs. Explaining diffs the contiguous snapshots from the one before the latest where the
 * path lost an owner (`transitions`: the path's, oldest first) or left the object, or else the last
 * two; the events before need only their facts and the path's presence, which decide that place.
 */
export function explainChainStart(p: ResolvedPath, values: readonly EventValue[], transitions: readonly FieldTransition[]): number {
  const last = values.length - 1;
  // A deleted object is explained by its last event alone (no snapshot is diffed).
  if (last <= 0 || values[last]!.event.watchType === 'DELETED') return Math.max(0, last);
  const step = explainStepSeq(p, values, transitions);
  const at = step === undefined ? last : values.findIndex((v) => seqString(v.event.seq) === step);
  // The snapshot before the step (before the last one without a step).
  for (let i = at - 1; i >= 0; i--) if (values[i]!.event.watchType !== 'DELETED') return i;
  return last;
}

/**
 * The sequence of the latest event, not a deletion nor the first of the others, at which the path
 * lost an owner (`transitions`: the path's, oldest first) or left the object: explaining diffs the
 * snapshots from the one before it ({@link explainChainStart}); `undefined` where there is none.
 * `changes` (oldest first) holds the events at which the path's value can change — at least the
 * first, every deletion and the event after each; every event not among them has the value of the
 * one before it — so that every event of the object may be there, or only those.
 */
export function explainStepSeq(p: ResolvedPath, changes: readonly EventValue[], transitions: readonly FieldTransition[]): string | undefined {
  const lostAt = new Set(transitions.filter((t) => losesOwner(p, t)).map((t) => t.seq));
  // `present` undefined: an owner lost at an event not among the changes, whose value is the one before.
  const points: { seq: string; deleted: boolean; present: boolean | undefined }[] = changes.map((v) => ({
    seq: seqString(v.event.seq),
    deleted: v.event.watchType === 'DELETED',
    present: v.value !== undefined,
  }));
  const known = new Set(points.map((x) => x.seq));
  for (const seq of lostAt) if (!known.has(seq)) points.push({ seq, deleted: false, present: undefined });
  points.sort((a, b) => compareSeq(a.seq, b.seq));
  const steps: Steps = { lastStep: undefined, wasPresent: false };
  let snapshots = 0;
  let step: string | undefined;
  let present = false;
  for (const x of points) {
    if (x.deleted) continue;
    present = x.present ?? present;
    track(steps, snapshots, present, lostAt.has(x.seq));
    if (steps.lastStep === snapshots) step = x.seq;
    snapshots++;
  }
  return step;
}

/**
 * `explainField` from the projection: the path's transitions already folded (oldest first, every
 * one up to the last event) and the owned fields after the last event, with the object's events
 * from {@link explainChainStart} on (`chain`, every one applied by the fold: none unreadable), the
 * path resolved and the schema chosen from all of its events' facts ({@link resolveEventsPath},
 * {@link eventsSchema}): no fold here, and no body read before the chain.
 */
export function explainFieldOfProjected(
  p: ResolvedPath,
  schema: SchemaUsed,
  chain: readonly ObservedEvent[],
  transitions: readonly FieldTransition[],
  fields: readonly OwnedField[],
  schemaResolver: SchemaResolver = defaultSchemaResolver,
): FieldExplanationView {
  const bySeq = new Map<string, FieldTransition[]>();
  for (const t of transitions) {
    const list = bySeq.get(t.seq);
    if (list) list.push(t);
    else bySeq.set(t.seq, [t]);
  }
  const w = newWalk();
  w.transitions.push(...transitions);
  const sorted = sortEvents(chain);
  for (const e of sorted) step(w, p, e, schemaResolver(apiVersionOf(e.group, e.version), e.kind, e.cluster).type, bySeq.get(seqString(e.seq)) ?? []);
  const last = sorted.at(-1);
  return explainWalk(p, w, last ? { fields, apiVersion: apiVersionOf(last.group, last.version), kind: last.kind } : undefined, schema);
}

function explainWalk(p: ResolvedPath, w: Walk, state: Pick<ObjectOwnershipState, 'fields' | 'apiVersion' | 'kind'> | undefined, schema: SchemaUsed): FieldExplanationView {
  const { transitions, snapshots, lastStep, deleted, type } = w;
  const forms = { path: pathToHuman(p.elements), fieldsV1Path: p.fieldsV1Path };
  const released = (m: ManagerRef | null): ReleasedBy | null => {
    if (!m) return null;
    const id = identityOf(m);
    const t = [...transitions].reverse().find((x) => x.fieldsV1Path === p.fieldsV1Path && RELEASES.has(x.type) && transitionManager(x) !== null && identityOf(transitionManager(x)!) === id);
    return { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, subresource: m.subresource, at: t?.at ?? null, seq: t?.seq ?? null };
  };

  if (deleted || snapshots.length === 0 || !type || !state) {
    const t = deleted ? transitions.filter((x) => x.fieldsV1Path === p.fieldsV1Path).at(-1) : undefined;
    return {
      ...forms,
      present: false,
      cause: deleted ? 'removed' : 'unknown',
      causes: [deleted ? 'removed' : 'unknown'],
      unknownReason: deleted ? null : 'no-history',
      message: deleted ? 'the object was deleted' : 'no observation of this object',
      releasedBy: null,
      remainingOwners: [],
      remedies: [],
      notes: t ? [{ code: 'object-deleted', message: `the object was deleted at ${t.at}` }] : [],
      objectDeleted: deleted,
      schema,
    };
  }
  const last = snapshots[snapshots.length - 1]!;
  // Without such a step the last pair is enough (a contiguous chain: skipping snapshots would change the diffs).
  const history = snapshots.slice(lastStep !== undefined ? lastStep - 1 : Math.max(0, snapshots.length - 2), -1);
  const x = explain(history, last, p.elements);
  const segments = p.elements.map((pe) => pe.str);
  return {
    ...forms,
    present: x.present,
    cause: x.cause,
    causes: [x.cause, ...(BROADER[x.cause] ?? [])],
    unknownReason: x.unknownReason,
    message: x.message,
    releasedBy: released(x.releasedBy),
    remainingOwners: x.remainingOwners.map((o) => ({
      manager: o.manager,
      operation: o.operation,
      apiVersion: o.apiVersion,
      subresource: o.subresource,
      since: ownerSince(state, segments, o)?.since ?? null,
      via: o.via,
      index: o.index,
    })),
    remedies: x.remedies.map((r) => ({
      kind: r.kind,
      summary: r.description,
      command: r.commands.length > 0 ? r.commands.join('\n') : null,
      commands: r.commands,
      patch: r.patch,
      warning: r.warning,
    })),
    notes: [
      ...x.notes.map((n) => ({ code: n.code, message: n.message })),
      ...otherVersionOwnerNotes(last.object, last.type, state.apiVersion, state.kind, x.remainingOwners),
    ],
    objectDeleted: false,
    schema,
  };
}
