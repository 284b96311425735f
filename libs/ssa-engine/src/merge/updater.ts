import { FieldSet } from '../fieldpath/field-set.js';
import type { ManagerEntry, Managers } from '../managed-fields/managed-fields.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import { valueEquals } from '../value/compare.js';
import type { Value } from '../value/value.js';
import { compare, type Comparison } from '../typed/compare.js';
import { ensureNamedFieldsAreMembers } from '../typed/ensure-named-fields.js';
import { merge } from '../typed/merge.js';
import { reconcileWithSchema } from '../typed/reconcile-schema.js';
import { removeItems } from '../typed/remove-items.js';
import { toFieldSet } from '../typed/to-field-set.js';
import { ConflictError, makeConflict, type Conflict } from './conflict.js';
import type { VersionConverter } from '../conversion/converter.js';

/**
 * The schema context of one write: the object's type at the request's API version and the fields
 * the endpoint resets (ignored by ownership, 05 §6). Managers recorded at another version are
 * compared, reconciled and pruned in their own version through `conversion` (04 §0, §1, §3.4);
 * without it (or where it cannot convert) they are kept opaque or dropped (04 §3.6).
 */
export interface WriteContext {
  readonly type: ResolvedType;
  readonly apiVersion: string;
  /** Reset fields of the endpoint, applied with recursive-difference semantics. */
  readonly resetFields?: FieldSet;
  /**
   * Whether the server still serves an API version. Used for versions `conversion` cannot convert:
   * managers at an unserved version are dropped (04 §0); managers at another served version are
   * kept as they are, opaque (04 §3.6 (a)): they neither conflict nor lose fields.
   * Default: only the request's version is served.
   */
  readonly isServedVersion?: (apiVersion: string) => boolean;
  /** How the apiserver converts the object between versions; absent = the engine cannot convert. */
  readonly conversion?: VersionConverter;
}

/** How the managers at one API version take part in a write. */
type VersionRole =
  | { readonly kind: 'same' }
  /** Converted: compared, reconciled and pruned at its own version with `type`; `live` is the live object there. */
  | { readonly kind: 'convert'; readonly type: ResolvedType; readonly live: Value | undefined }
  | { readonly kind: 'opaque' }
  | { readonly kind: 'drop' };

/** The roles of the versions met in one write, decided once per version (the live object converted once). */
class Versions {
  private readonly roles = new Map<string, VersionRole>();
  constructor(
    readonly ctx: WriteContext,
    private readonly live: Value | undefined,
  ) {}

  role(apiVersion: string): VersionRole {
    let r = this.roles.get(apiVersion);
    if (r === undefined) this.roles.set(apiVersion, (r = this.decide(apiVersion)));
    return r;
  }

  private decide(v: string): VersionRole {
    const ctx = this.ctx;
    if (v === ctx.apiVersion) return { kind: 'same' };
    const type = ctx.conversion?.typeAt(v);
    if (type) {
      const live = this.convert(this.live, ctx.apiVersion, v);
      // A live object that cannot be converted: the version counts as unknown (missing version, 04 §0).
      if (live !== null) return { kind: 'convert', type, live };
    }
    return ctx.isServedVersion?.(v) ? { kind: 'opaque' } : { kind: 'drop' };
  }

  /** The type at a version taking part (same or converted), else `undefined`. */
  typeAt(v: string): ResolvedType | undefined {
    const r = this.role(v);
    return r.kind === 'same' ? this.ctx.type : r.kind === 'convert' ? r.type : undefined;
  }

  /** `object` at `from` converted to `to`; `null` when it cannot be (then the version counts as missing). */
  convert(object: Value, from: string, to: string): Value | null;
  convert(object: Value | undefined, from: string, to: string): Value | undefined | null;
  convert(object: Value | undefined, from: string, to: string): Value | undefined | null {
    if (object === undefined || from === to) return object;
    const c = this.ctx.conversion?.convert(object, from, to);
    return c === undefined ? null : c;
  }
}

function filter(set: FieldSet, reset: FieldSet | undefined): FieldSet {
  return reset ? set.recursiveDifference(reset) : set;
}

function filterComparison(c: Comparison, reset: FieldSet | undefined): Comparison {
  if (!reset) return c;
  return { added: filter(c.added, reset), modified: filter(c.modified, reset), removed: filter(c.removed, reset) };
}

function withSet(e: ManagerEntry, set: FieldSet): ManagerEntry {
  return { ...e, set };
}

/**
 * Pre-step (04 §0): convert the live object to each manager's version; drop managers whose
 * version is unknown (or cannot be converted and is not served); reconcile the rest with the
 * schema of their own version.
 */
function reconcile(managers: Managers, vs: Versions): Managers {
  const out: Managers = new Map();
  for (const [id, e] of managers) {
    const role = vs.role(e.apiVersion);
    if (role.kind === 'drop') continue;
    if (role.kind === 'opaque') {
      out.set(id, e);
      continue;
    }
    const r = reconcileWithSchema(e.set, vs.typeAt(e.apiVersion)!);
    out.set(id, r === e.set ? e : withSet(e, r));
  }
  return out;
}

/**
 * The bookkeeping step shared by Update and Apply (04 §1): other managers lose the fields this
 * write changed, added (conflicts unless forced) or removed, each compared in its own version.
 */
function updateStep(
  live: Value | undefined,
  next: Value | undefined,
  managers: Managers,
  me: string,
  force: boolean,
  vs: Versions,
): { managers: Managers; comparison: Comparison } {
  const ctx = vs.ctx;
  const cmp = filterComparison(compare(live, next, ctx.type), ctx.resetFields);
  // Comparisons per version, computed once (SMD Updater.update's `versions` cache); `null`: the
  // version cannot take part (unknown, or the new object cannot be converted to it).
  // `changed` (modified or added) is what a manager at that version loses, or conflicts on.
  const withChanged = (c: Comparison) => ({ ...c, changed: c.modified.union(c.added) });
  const byVersion = new Map<string, (Comparison & { readonly changed: FieldSet }) | null>([[ctx.apiVersion, withChanged(cmp)]]);
  const comparisonAt = (v: string, role: VersionRole) => {
    let c = byVersion.get(v);
    if (c !== undefined) return c;
    if (role.kind !== 'convert') return null;
    const newV = vs.convert(next, ctx.apiVersion, v);
    c = newV === null ? null : withChanged(filterComparison(compare(role.live, newV, role.type), ctx.resetFields));
    byVersion.set(v, c);
    return c;
  };
  const conflicts = new Map<string, FieldSet>();
  const removed = new Map<string, FieldSet>();
  const conflictList: Conflict[] = [];
  for (const [id, e] of managers) {
    if (id === me) continue;
    const role = vs.role(e.apiVersion);
    if (role.kind === 'opaque') continue;
    const c = comparisonAt(e.apiVersion, role);
    if (c === null) {
      managers.delete(id); // unknown version (or not convertible and unserved): the apiserver drops it
      continue;
    }
    // Left operand first: the path elements come from the manager's set.
    const lost = e.set.intersection(c.changed);
    if (!lost.isEmpty) {
      conflicts.set(id, lost);
      for (const p of lost.paths()) conflictList.push(makeConflict(id, p));
    }
    if (!c.removed.isEmpty) removed.set(id, c.removed);
  }
  if (!force && conflictList.length > 0) throw new ConflictError(conflictList);
  for (const [id, e] of managers) {
    if (id === me) continue;
    let s = e.set;
    const c = conflicts.get(id);
    if (c) s = s.difference(c);
    const r = removed.get(id);
    if (r) s = s.difference(r);
    if (s !== e.set) managers.set(id, withSet(e, s));
  }
  for (const [id, e] of managers) if (e.set.isEmpty) managers.delete(id);
  return { managers, comparison: cmp };
}

/**
 * A non-apply write (04 §2): the writer gains what it changed or added (with parents it
 * created); everybody else loses those fields. Never conflicts. `entry` describes the writer.
 */
export function smdUpdate(
  live: Value | undefined,
  next: Value,
  managers: Managers,
  me: string,
  entry: Omit<ManagerEntry, 'set'>,
  ctx: WriteContext,
): Managers {
  const vs = new Versions(ctx, live);
  const m = reconcile(managers, vs);
  const { comparison: cmp } = updateStep(live, next, m, me, true, vs);
  const prev = m.get(me)?.set ?? FieldSet.EMPTY;
  const set = filter(prev.difference(cmp.removed).union(cmp.modified).union(cmp.added), ctx.resetFields);
  if (set.isEmpty) m.delete(me);
  else m.set(me, { ...entry, set });
  return m;
}

export interface ApplyResult {
  /** The new object, or `undefined` when the apply changes nothing in the object (04 §5). */
  readonly object: Value | undefined;
  readonly managers: Managers;
}

/**
 * Server-side apply (04 §3): merge, own exactly the config's fields, prune what the applier
 * released and nobody else owns, then check conflicts against every other manager. Throws
 * `ConflictError` (unless `force`) and `validation` errors for a bad config.
 */
export function smdApply(
  live: Value | undefined,
  config: Value,
  managers: Managers,
  me: string,
  entry: Omit<ManagerEntry, 'set'>,
  force: boolean,
  ctx: WriteContext,
): ApplyResult {
  const vs = new Versions(ctx, live);
  const m = reconcile(managers, vs);
  const merged = merge(live, config, ctx.type) ?? null;
  const lastSet = m.get(me);
  const set = filter(toFieldSet(config, ctx.type), ctx.resetFields);
  m.set(me, { ...entry, set });
  const pruned = prune(merged, m, lastSet, vs);
  updateStep(live, pruned, m, me, force, vs);
  const object = live !== undefined && valueEquals(live, pruned) ? undefined : pruned;
  return { object, managers: m };
}

/**
 * Pruning (04 §3.4): remove what the applier owned last time and nobody owns now, at the version
 * of the applier's previous entry (SMD Updater.prune). Skipped when that version cannot be used.
 */
function prune(merged: Value, managers: Managers, lastSet: ManagerEntry | undefined, vs: Versions): Value {
  if (!lastSet || lastSet.set.isEmpty) return merged;
  const V = vs.ctx.apiVersion;
  const lv = lastSet.apiVersion;
  const lt = vs.typeAt(lv);
  if (!lt) return merged; // unknown or unconvertible version: pruning is skipped
  const x = vs.convert(merged, V, lv);
  if (x === null) return merged;
  const E = ensureNamedFieldsAreMembers;
  const xSet = E(toFieldSet(x, lt), lt);
  let pruned = removeItems(x, E(lastSet.set, lt), lt);
  // Add back whatever someone owns ("add back owned items"), the previous entry's version first.
  const owned = new Map<string, FieldSet>([[lv, FieldSet.EMPTY]]);
  for (const e of managers.values()) {
    if (!vs.typeAt(e.apiVersion)) continue; // opaque managers: their paths are not at a known version
    owned.set(e.apiVersion, (owned.get(e.apiVersion) ?? FieldSet.EMPTY).union(e.set));
  }
  let at = lv;
  for (const [v, set] of owned) {
    const t = vs.typeAt(v)!;
    const xv = vs.convert(x, lv, v);
    const pv = vs.convert(pruned, at, v);
    if (xv === null || pv === null) continue;
    const mergedSet = v === lv ? xSet : E(toFieldSet(xv, t), t);
    pruned = removeItems(xv, mergedSet.difference(E(toFieldSet(pv, t), t).union(E(set, t))), t);
    at = v;
  }
  // Only ever remove what was the applier's last time ("add back dangling items").
  const pc = vs.convert(pruned, at, lv);
  if (pc === null) return merged;
  const toRemove = xSet.difference(E(toFieldSet(pc, lt), lt)).intersection(E(lastSet.set, lt));
  const result = vs.convert(removeItems(x, toRemove, lt), lv, V);
  return result ?? merged;
}
