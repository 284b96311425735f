import { compareStrings, type ManagerRef } from '../../ssa-engine/src/index.js';
import { objectRef, type ObjectRef } from './objects.read-model.js';
import type { FieldOwner, Since } from './observed-event.types.js';
import { identityOf, type FieldMark, type ObjectOwnershipState, type OwnedField } from './object-ownership.projection.js';
import { compareSeq, parseAt, type AsOf } from './seq.util.js';

/**
 * Kinds of cluster-wide findings:
 * - `apply-update-co-owned`: a field owned by an Apply manager and an Update manager at once (the
 *   applier cannot change it without conflict; dropping it from its manifest will not delete it);
 * - `replicas-contested`: `.spec.replicas` taken from an applier by an Update (typically an
 *   autoscaler through `/scale`): the applier conflicts on its next apply unless it drops replicas;
 * - `applier-will-conflict`: the same for any other field taken from an applier;
 * - `client-side-apply-leftover`: a field a client-side-apply entry owns next to (or after the
 *   release of) a server-side applier, which can therefore never delete it;
 * - `recently-forced`: the latest forced takeover of a field, still owned by the forcer.
 */
export type FindingType = 'apply-update-co-owned' | 'replicas-contested' | 'applier-will-conflict' | 'client-side-apply-leftover' | 'recently-forced';

/** All finding types, for validating `?type=`. */
export const FINDING_TYPES: readonly FindingType[] = ['apply-update-co-owned', 'replicas-contested', 'applier-will-conflict', 'client-side-apply-leftover', 'recently-forced'];

/** One finding on one field, without the object it is in (what the projection stores per object). */
export interface FieldFinding {
  readonly type: FindingType;
  readonly path: string;
  readonly fieldsV1Path: string;
  /** The managers the finding is about (e.g. the taker first, then the applier that lost it). */
  readonly managers: readonly ManagerRef[];
  /** The field's current direct owners. */
  readonly owners: readonly FieldOwner[];
  /** Since when the situation holds. */
  readonly since: Since;
  readonly message: string;
}

/** One finding on one field of one object. */
export interface Finding extends ObjectRef, FieldFinding {}

/** Options of `findings`. */
export interface FindingsOptions {
  /** Only findings whose situation started at or after this moment (RFC 3339 time or sequence). */
  readonly since?: string | number | bigint | AsOf;
  readonly types?: readonly FindingType[];
}

const CSA = 'kubectl-client-side-apply';
const LAST_APPLIED_KEY = 'f:metadata.f:annotations.f:kubectl.kubernetes.io/last-applied-configuration';
const REPLICAS_KEY = 'f:spec.f:replicas';

function refOf(o: ManagerRef): ManagerRef {
  return { manager: o.manager, operation: o.operation, apiVersion: o.apiVersion, subresource: o.subresource };
}

function latest(owners: readonly FieldOwner[]): Since {
  return owners.reduce((a, o) => (compareSeq(o.since.seq, a.seq) > 0 ? o.since : a), owners[0]!.since);
}

function names(ms: readonly ManagerRef[]): string {
  return ms.map((m) => `${m.manager} (${m.operation}${m.subresource ? ', ' + m.subresource : ''})`).join(', ');
}

/** Identities that are client-side apply entries: the CSA manager, or an Update entry owning the last-applied annotation. */
function csaIdentities(s: ObjectOwnershipState): Set<string> {
  const ids = new Set<string>();
  for (const f of s.fields) {
    for (const o of f.owners) {
      if (o.operation !== 'Update') continue;
      if (o.manager === CSA || (f.fieldsV1Path === LAST_APPLIED_KEY && o.subresource === '')) ids.add(identityOf(o));
    }
  }
  return ids;
}

function leafFields(s: ObjectOwnershipState): OwnedField[] {
  // Fields are in canonical order (members before children): a field is a leaf unless the next one is below it.
  return s.fields.filter((f, i) => {
    const n = s.fields[i + 1];
    return !n || n.segments.length <= f.segments.length || !f.segments.every((seg, j) => n.segments[j] === seg);
  });
}

function unsortedFieldFindings(s: ObjectOwnershipState): FieldFinding[] {
  const out: FieldFinding[] = [];
  const byKey = new Map(s.fields.map((f) => [f.fieldsV1Path, f]));
  const csa = csaIdentities(s);
  const add = (type: FindingType, f: OwnedField, managers: readonly ManagerRef[], since: Since, message: string): void => {
    out.push({ type, path: f.path, fieldsV1Path: f.fieldsV1Path, managers: managers.map(refOf), owners: f.owners, since, message });
  };
  const releasedByApplier = new Map<string, FieldMark>();
  for (const m of s.marks) if (m.kind === 'released-kept' && m.manager.operation === 'Apply') releasedByApplier.set(m.fieldsV1Path, m);

  for (const f of leafFields(s)) {
    if (f.fieldsV1Path === LAST_APPLIED_KEY) continue;
    const applies = f.owners.filter((o) => o.operation === 'Apply');
    const csaOwners = f.owners.filter((o) => csa.has(identityOf(o)));
    const updates = f.owners.filter((o) => o.operation === 'Update' && !csa.has(identityOf(o)));
    if (applies.length > 0 && updates.length > 0) {
      const ms = [...applies, ...updates];
      add('apply-update-co-owned', f, ms, latest(ms), `${f.path} is co-owned by ${names(applies)} and ${names(updates)}: the applier cannot change or delete it alone`);
    }
    const released = releasedByApplier.get(f.fieldsV1Path);
    if (csaOwners.length > 0 && (applies.length > 0 || released)) {
      const appliers = applies.length > 0 ? applies : [released!.manager];
      const since = applies.length > 0 ? latest([...applies, ...csaOwners]) : { seq: released!.seq, at: released!.at };
      add(
        'client-side-apply-leftover',
        f,
        [...csaOwners, ...appliers],
        since,
        `${f.path} is owned by the client-side apply entry ${names(csaOwners)}: ${names(appliers)} can never delete it by applying without it`,
      );
    }
  }

  for (const m of s.marks) {
    const f = byKey.get(m.fieldsV1Path);
    if (!f) continue;
    const owns = (r: ManagerRef): boolean => f.owners.some((o) => identityOf(o) === identityOf(r));
    const since = { seq: m.seq, at: m.at };
    if (m.kind === 'taken-from-applier' && owns(m.manager) && !m.from.some(owns)) {
      const replicas = m.fieldsV1Path === REPLICAS_KEY;
      add(
        replicas ? 'replicas-contested' : 'applier-will-conflict',
        f,
        [m.manager, ...m.from],
        since,
        `${names([m.manager])} took ${f.path} from ${names(m.from)}: its next apply conflicts unless it drops ${f.path} from its manifest (or forces)`,
      );
    } else if (m.kind === 'forced' && owns(m.manager)) {
      add('recently-forced', f, [m.manager, ...m.from], since, `${names([m.manager])} forced ${f.path} away from ${names(m.from)}`);
    }
  }
  return out;
}

/**
 * The findings of one (live) object, by field (`fieldsV1Path`) then type; none for a deleted one.
 * The projection stores them per object, so `GET /v1/findings` reads them without folding.
 */
export function fieldFindings(s: ObjectOwnershipState): FieldFinding[] {
  if (s.deleted) return [];
  return unsortedFieldFindings(s).sort((a, b) => compareStrings(a.fieldsV1Path, b.fieldsV1Path) || compareStrings(a.type, b.type));
}

function after(since: Since, from: AsOf): boolean {
  return from.kind === 'seq' ? compareSeq(since.seq, from.seq) >= 0 : Date.parse(since.at) >= from.ms;
}

/**
 * `GET /v1/findings?type=`: contested fields across the given (live) states, sorted by object and
 * path. `since` keeps the situations that started at or after it. Throws `AuditError('invalid-at')`
 * for a malformed `since`.
 */
export function findings(states: Iterable<ObjectOwnershipState>, options: FindingsOptions | string | number | bigint = {}): Finding[] {
  const opts: FindingsOptions = typeof options === 'object' ? options : { since: options };
  const from = opts.since === undefined ? undefined : typeof opts.since === 'object' ? opts.since : parseAt(opts.since);
  const types = opts.types ? new Set(opts.types) : undefined;
  const out: Finding[] = [];
  for (const s of states) {
    const obj = objectRef(s);
    for (const f of fieldFindings(s)) {
      if (types && !types.has(f.type)) continue;
      if (from && !after(f.since, from)) continue;
      out.push({ ...obj, ...f });
    }
  }
  return out.sort(compareFindings);
}

/** The list's order: cluster, object id, field, type (what `findings` sorts by). */
export function compareFindings(a: Finding, b: Finding): number {
  return compareStrings(a.cluster, b.cluster) || compareStrings(a.objectId, b.objectId) || compareStrings(a.fieldsV1Path, b.fieldsV1Path) || compareStrings(a.type, b.type);
}
