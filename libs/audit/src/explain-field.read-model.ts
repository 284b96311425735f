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
import { replayEvents } from './field-history.read-model.js';
import { ownerSince } from './field-owners.read-model.js';
import type { ObservedEvent, Since } from './observed-event.types.js';
import { identityOf, transitionManager, type FieldTransition, type ObjectOwnershipState, type OwnedField } from './object-ownership.projection.js';
import { seqString, sortEvents } from './seq.util.js';
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

/** What explaining needs of the object's events: walked by a fold, or from the projection. */
interface Walk {
  readonly transitions: FieldTransition[];
  readonly snapshots: Snapshot[];
  /** The latest snapshot in which the path lost an owner or left the object. */
  lastStep: number | undefined;
  deleted: boolean;
  type: Snapshot['type'] | undefined;
  wasPresent: boolean;
}

/** One applied event into the walk (its transitions already added). */
function step(w: Walk, p: ResolvedPath, e: ObservedEvent, type: Snapshot['type'], ts: readonly FieldTransition[]): void {
  w.type = type;
  w.deleted = e.watchType === 'DELETED';
  if (w.deleted) return;
  w.snapshots.push({ object: e.object, type });
  const present = valueAt(e.object, p.elements) !== undefined;
  const lost = ts.some((t) => t.fieldsV1Path === p.fieldsV1Path && t.from.length > 0);
  if (w.snapshots.length > 1 && (lost || (w.wasPresent && !present))) w.lastStep = w.snapshots.length - 1;
  w.wasPresent = present;
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
 * `explainField` from the projection: the object's transitions already folded (oldest first; only
 * those of the path are read, so the path's alone are enough) and
 * its owned fields after the last event, with the object's events, every one of them applied by
 * the fold (none unreadable): no fold here.
 */
export function explainFieldOfProjected(
  events: readonly ObservedEvent[],
  transitions: readonly FieldTransition[],
  fields: readonly OwnedField[],
  path: string,
  schemaResolver: SchemaResolver = defaultSchemaResolver,
): FieldExplanationView {
  const p = resolveEventsPath(events, path, schemaResolver);
  const bySeq = new Map<string, FieldTransition[]>();
  for (const t of transitions) {
    const list = bySeq.get(t.seq);
    if (list) list.push(t);
    else bySeq.set(t.seq, [t]);
  }
  const w = newWalk();
  const sorted = sortEvents(events);
  for (const e of sorted) {
    const ts = bySeq.get(seqString(e.seq)) ?? [];
    w.transitions.push(...ts);
    step(w, p, e, schemaResolver(apiVersionOf(e.group, e.version), e.kind, e.cluster).type, ts);
  }
  const last = sorted.at(-1);
  return explainWalk(p, w, last ? { fields, apiVersion: apiVersionOf(last.group, last.version), kind: last.kind } : undefined, eventsSchema(events, schemaResolver));
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
