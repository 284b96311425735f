import type { Path } from '../fieldpath/field-set.js';
import { parsePath } from '../fieldpath/parse-path.js';
import { diffDecoded, LAST_APPLIED, sameRef, type Transition } from './diff-snapshots.js';
import { note, type Note } from './notes.js';
import { ownersAtDecoded, type Owner } from './owners-at.js';
import { pathForms, type PathForms } from './path-info.js';
import {
  applyWithoutField,
  coOwn,
  csaMigration,
  deleteField,
  forceApply,
  forceThenDrop,
  remedyTarget,
  removeEntry,
  resetManagedFields,
  type Remedy,
  type RemedyTarget,
} from './remedies.js';
import { isPresent, readSnapshot, type DecodedSnapshot, type ManagerRef, type Snapshot } from './snapshot.js';
import { fieldName } from '../fieldpath/path-element.js';

/**
 * Why a field is still here or gone (07 §4):
 * - `co-owned-after-release`: an applier released it, other Apply managers still own it;
 * - `update-manager-never-releases`: an applier released it, an Update manager still owns it
 *   (Update entries only lose fields when someone else changes or removes them);
 * - `client-side-apply-leftover`: the owner keeping it is a client-side apply entry;
 * - `atomic-parent`: nobody owns the field itself, it lives inside an atomic parent that is owned;
 * - `owned`: present and owned, no release observed;
 * - `orphan`: present and owned by nobody (defaulted, admission, pruning skipped);
 * - `pruned`: gone: its applier stopped applying it and nobody else owned it;
 * - `removed`: gone: a write deleted it;
 * - `never-applied`: absent from every observed snapshot and never owned;
 * - `unknown`: the snapshots cannot tell (see `unknownReason`).
 */
export type CauseCode =
  | 'co-owned-after-release'
  | 'update-manager-never-releases'
  | 'client-side-apply-leftover'
  | 'atomic-parent'
  | 'owned'
  | 'orphan'
  | 'pruned'
  | 'removed'
  | 'never-applied'
  | 'unknown';

/** Why the cause is `unknown`. */
export type UnknownReason =
  /** Absent and no earlier snapshot to compare with. */
  | 'no-history'
  /** The object carries no managedFields. */
  | 'untracked-object';

/** The answer of `explain`. */
export interface Explanation extends PathForms {
  readonly present: boolean;
  readonly cause: CauseCode;
  readonly unknownReason: UnknownReason | null;
  /** One sentence for people. */
  readonly message: string;
  /**
   * The identity whose write released or deleted the field in the latest observed transition that
   * concerns it (the releasing applier for kept/orphan/pruned, the writer for removed), or `null`.
   */
  readonly releasedBy: ManagerRef | null;
  /** The transitions of the path in that observed step. */
  readonly transitions: readonly Transition[];
  /** Owners keeping the field (effective owners: 07 §3), with entry time and list index. */
  readonly remainingOwners: readonly Owner[];
  readonly remedies: readonly Remedy[];
  readonly notes: readonly Note[];
}

const CSA_MANAGER = 'kubectl-client-side-apply';
const LAST_APPLIED_PATH: Path = [fieldName('metadata'), fieldName('annotations'), fieldName(LAST_APPLIED)];

/**
 * Explains why `path` is still in `after` or gone from it. `previous` is the snapshot before
 * `after`, or the earlier history oldest first, or `undefined`. All snapshots are read with
 * `after.type`. `path` is in human or FieldsV1 dotted form (see `parsePath`) or parsed.
 */
export function explain(previous: Snapshot | readonly Snapshot[] | undefined, after: Snapshot, path: string | Path): Explanation {
  const a = readSnapshot(after);
  const history = (previous === undefined ? [] : Array.isArray(previous) ? previous : [previous as Snapshot]).map((s) =>
    readSnapshot({ object: s.object, type: after.type }),
  );
  const p = typeof path === 'string' ? parsePath(path, a.type) : path;
  const chain = [...history, a];
  const forms = pathForms(p);
  const o = ownersAtDecoded(a, p);
  const target = remedyTarget(a.object);
  const present = o.present;

  // The latest step in which the path lost an owner or left the object.
  let step: { transitions: Transition[]; writer: ManagerRef | null; disappeared: boolean } | undefined;
  for (let i = chain.length - 1; i > 0 && !step; i--) {
    const b = chain[i - 1]!;
    const c = chain[i]!;
    const d = diffDecoded(b, c);
    const ts = d.transitions.filter((t) => t.path === forms.path && t.from.length > 0);
    const disappeared = isPresent(b, p) && !isPresent(c, p);
    if (ts.length > 0 || disappeared) step = { transitions: ts, writer: d.writer?.manager ?? null, disappeared };
  }

  const result = (cause: CauseCode, message: string, extra: Partial<Explanation> = {}): Explanation => ({
    ...forms,
    present,
    cause,
    unknownReason: null,
    message,
    releasedBy: null,
    transitions: step?.transitions ?? [],
    remainingOwners: o.effectiveOwners,
    remedies: [],
    notes: [],
    ...extra,
  });

  if (a.entries.size === 0) {
    return result('unknown', 'the object carries no managedFields: ownership is not tracked', {
      unknownReason: 'untracked-object',
      notes: [note('untracked-object', 'no managedFields: the next apply creates before-first-apply owning everything')],
    });
  }

  if (!present) {
    const t = step?.transitions.find((x) => x.type === 'pruned' || x.type === 'removed');
    if (t?.type === 'pruned') {
      return result('pruned', `${t.manager?.manager} stopped applying ${forms.path} and nobody else owned it: it was pruned`, {
        releasedBy: t.manager,
      });
    }
    if (t?.type === 'removed' || step?.disappeared) {
      const by = t?.manager ?? step?.writer ?? null;
      return result('removed', `a write${by ? ` by ${by.manager}` : ''} deleted ${forms.path}${t ? '; its owners lost it' : ' (nobody owned it)'}`, {
        releasedBy: by,
      });
    }
    if (history.length === 0) {
      return result('unknown', `${forms.path} is absent and there is no earlier snapshot: whether it ever existed cannot be told`, {
        unknownReason: 'no-history',
      });
    }
    const everOwned = chain.some((s) => [...s.entries.values()].some((e) => e.set.has(p) || e.set.hasDescendantsOf(p)));
    const everPresent = chain.some((s) => isPresent(s, p));
    if (!everOwned && !everPresent) return result('never-applied', `${forms.path} is in no observed snapshot and no manager ever owned it`);
    return result('unknown', `${forms.path} is absent; the observed history does not show when it went`, { unknownReason: 'no-history' });
  }

  const released = step?.transitions.find((x) => x.type === 'kept' || x.type === 'orphaned');
  const releasedBy = released?.manager ?? null;
  const effective = o.effectiveOwners;
  const direct = o.owners;

  if (effective.length === 0) {
    const del = deleteField(p, forms.path, a.object, [], target);
    const remedies = [...(del ? [del] : []), forceThenDrop(releasedBy?.manager ?? '<your-manager>', forms.path, target, false)];
    return result(
      'orphan',
      `${forms.path} is present but nobody owns it: set by defaulting or admission, re-defaulted after pruning, or pruning was skipped`,
      {
        releasedBy,
        remedies,
        notes: [note('orphaned', 'present and owned by nobody; deleting it may not last if it is a default or added by admission', [], [forms.path])],
      },
    );
  }

  if (direct.length === 0 && effective.every((e) => e.via === 'atomic-ancestor')) {
    const remedies = ownerRemedies(a, effective, ancestorPath(a, p), null, target, releasedBy);
    return result(
      'atomic-parent',
      `${forms.path} is inside an atomic parent owned as a whole by ${names(effective)}: it goes only when its owners apply the parent without it`,
      { releasedBy, remedies },
    );
  }

  if (!released) {
    return result('owned', `${forms.path} is owned by ${names(effective)}`, {
      remedies: ownerRemedies(a, effective, forms.path, p, target, null),
    });
  }

  const csa = effective.filter((e) => isCsa(a, e));
  const updates = effective.filter((e) => e.operation === 'Update');
  const remedies = ownerRemedies(a, effective, forms.path, p, target, releasedBy);
  if (csa.length > 0) {
    return result(
      'client-side-apply-leftover',
      `${releasedBy!.manager} stopped applying ${forms.path}, but the client-side apply entry ${names(csa)} still owns it`,
      { releasedBy, remedies },
    );
  }
  if (updates.length > 0) {
    return result(
      'update-manager-never-releases',
      `${releasedBy!.manager} stopped applying ${forms.path}, but the Update manager ${names(updates)} still owns it: Update entries are never released by applies`,
      { releasedBy, remedies },
    );
  }
  return result(
    'co-owned-after-release',
    `${releasedBy!.manager} stopped applying ${forms.path}, but ${names(effective)} still apply it`,
    { releasedBy, remedies },
  );
}

function names(owners: readonly Owner[]): string {
  return owners.map((o) => `${o.manager} (${o.operation}${o.subresource ? ', ' + o.subresource : ''})`).join(', ');
}

function isCsa(s: DecodedSnapshot, o: Owner): boolean {
  if (o.operation !== 'Update') return false;
  if (o.manager === CSA_MANAGER) return true;
  const e = [...s.entries.values()].find((x) => x.index === o.index);
  return !!e && o.subresource === '' && e.set.has(LAST_APPLIED_PATH);
}

function ancestorPath(s: DecodedSnapshot, p: Path): string {
  const o = ownersAtDecoded(s, p);
  for (let i = p.length - 1; i > 0; i--) {
    const q = p.slice(0, i);
    if (o.effectiveOwners.some((e) => [...s.entries.values()].some((x) => x.index === e.index && x.set.has(q)))) return pathForms(q).path;
  }
  return pathForms(p).path;
}

/**
 * Remedies for the owners keeping a path (07 §4 "Remediations"), most targeted first. `p` is the
 * path a deletion would address (`null` inside an atomic parent: deleting it rewrites the parent).
 * When only Update owners keep it, no apply will ever prune it: deleting it comes right after the
 * client-side apply migration, and removing an owner's entry (which deletes nothing) after that.
 */
function ownerRemedies(s: DecodedSnapshot, owners: readonly Owner[], path: string, p: Path | null, t: RemedyTarget, releasedBy: ManagerRef | null): Remedy[] {
  const out: Remedy[] = [];
  let hasCsa = false;
  let hasUpdate = false;
  for (const o of owners) {
    if (o.operation === 'Apply') out.push(applyWithoutField(o, path, t));
    else {
      hasUpdate = true;
      if (isCsa(s, o)) hasCsa = true;
      out.push(removeEntry(o, o.index, s.listLength, t, path, owners.filter((x) => x !== o)));
    }
  }
  const del = p && owners.every((o) => o.operation === 'Update') ? deleteField(p, path, s.object, owners, t) : null;
  if (del) out.unshift(del);
  if (hasCsa) out.unshift(csaMigration(path, t));
  const desired = releasedBy && releasedBy.operation === 'Apply' && !owners.some((o) => sameRef(o, releasedBy)) ? releasedBy.manager : '<your-manager>';
  out.push(forceThenDrop(desired, path, t, true));
  out.push(forceApply(desired, path, t));
  out.push(coOwn(desired, path, t));
  if (hasUpdate) out.push(resetManagedFields(t));
  return out;
}
