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

/**
 * The schema context of one write: the object's type at the request's API version and the fields
 * the endpoint resets (ignored by ownership, 05 §6). The engine does not convert between API
 * versions: managers recorded at another version are treated as unknown versions (04 §0, §3.6).
 */
export interface WriteContext {
  readonly type: ResolvedType;
  readonly apiVersion: string;
  /** Reset fields of the endpoint, applied with recursive-difference semantics. */
  readonly resetFields?: FieldSet;
  /**
   * Whether the server still serves an API version. Managers at an unserved version are dropped
   * (04 §0); managers at another served version are kept as they are, opaque, because the engine
   * cannot convert objects between versions (04 §3.6 (a)): they neither conflict nor lose fields.
   * Default: only the request's version is served.
   */
  readonly isServedVersion?: (apiVersion: string) => boolean;
}

/** `same` (compare and update), `opaque` (keep untouched) or `drop` (unserved version). */
function versionRole(e: ManagerEntry, ctx: WriteContext): 'same' | 'opaque' | 'drop' {
  if (e.apiVersion === ctx.apiVersion) return 'same';
  return ctx.isServedVersion?.(e.apiVersion) ? 'opaque' : 'drop';
}

function filter(set: FieldSet, ctx: WriteContext): FieldSet {
  return ctx.resetFields ? set.recursiveDifference(ctx.resetFields) : set;
}

function filterComparison(c: Comparison, ctx: WriteContext): Comparison {
  if (!ctx.resetFields) return c;
  return { added: filter(c.added, ctx), modified: filter(c.modified, ctx), removed: filter(c.removed, ctx) };
}

function withSet(e: ManagerEntry, set: FieldSet): ManagerEntry {
  return { ...e, set };
}

/** Pre-step (04 §0): drop managers at unknown versions; reconcile the rest with the schema. */
function reconcile(managers: Managers, ctx: WriteContext): Managers {
  const out: Managers = new Map();
  for (const [id, e] of managers) {
    const role = versionRole(e, ctx);
    if (role === 'drop') continue;
    if (role === 'opaque') {
      out.set(id, e);
      continue;
    }
    const r = reconcileWithSchema(e.set, ctx.type);
    out.set(id, r === e.set ? e : withSet(e, r));
  }
  return out;
}

/**
 * The bookkeeping step shared by Update and Apply (04 §1): other managers lose the fields this
 * write changed, added (conflicts unless forced) or removed.
 */
function updateStep(
  live: Value | undefined,
  next: Value | undefined,
  managers: Managers,
  me: string,
  force: boolean,
  ctx: WriteContext,
): { managers: Managers; comparison: Comparison } {
  const cmp = filterComparison(compare(live, next, ctx.type), ctx);
  const changed = cmp.modified.union(cmp.added);
  const conflicts = new Map<string, FieldSet>();
  const conflictList: Conflict[] = [];
  for (const [id, e] of managers) {
    if (id === me) continue;
    const role = versionRole(e, ctx);
    if (role === 'drop') {
      managers.delete(id); // unserved version: the apiserver drops it
      continue;
    }
    if (role === 'opaque') continue;
    const c = e.set.intersection(changed);
    if (!c.isEmpty) {
      conflicts.set(id, c);
      for (const p of c.paths()) conflictList.push(makeConflict(id, p));
    }
  }
  if (!force && conflictList.length > 0) throw new ConflictError(conflictList);
  for (const [id, e] of managers) {
    if (id === me || e.apiVersion !== ctx.apiVersion) continue;
    let s = e.set;
    const c = conflicts.get(id);
    if (c) s = s.difference(c);
    if (!cmp.removed.isEmpty) s = s.difference(cmp.removed);
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
  const m = reconcile(managers, ctx);
  const { comparison: cmp } = updateStep(live, next, m, me, true, ctx);
  const prev = m.get(me)?.set ?? FieldSet.EMPTY;
  const set = filter(prev.difference(cmp.removed).union(cmp.modified).union(cmp.added), ctx);
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
  const m = reconcile(managers, ctx);
  const merged = merge(live, config, ctx.type) ?? null;
  const lastSet = m.get(me);
  const set = filter(toFieldSet(config, ctx.type), ctx);
  m.set(me, { ...entry, set });
  const pruned = prune(merged, m, lastSet, ctx);
  updateStep(live, pruned, m, me, force, ctx);
  const object = live !== undefined && valueEquals(live, pruned) ? undefined : pruned;
  return { object, managers: m };
}

/** Pruning (04 §3.4): remove what the applier owned last time and nobody owns now. */
function prune(merged: Value, managers: Managers, lastSet: ManagerEntry | undefined, ctx: WriteContext): Value {
  if (!lastSet || lastSet.set.isEmpty) return merged;
  if (lastSet.apiVersion !== ctx.apiVersion) return merged; // cannot convert: pruning is skipped
  const t = ctx.type;
  const E = (s: FieldSet) => ensureNamedFieldsAreMembers(s, t);
  let pruned = removeItems(merged, E(lastSet.set), t);
  // Add back whatever someone owns (all managers are at this version after the pre-step).
  let owned = FieldSet.EMPTY;
  for (const e of managers.values()) if (e.apiVersion === ctx.apiVersion) owned = owned.union(e.set);
  const mergedSet = E(toFieldSet(merged, t));
  pruned = removeItems(merged, mergedSet.difference(E(toFieldSet(pruned, t)).union(E(owned))), t);
  // Only ever remove what was the applier's last time ("add back dangling items").
  const toRemove = mergedSet.difference(E(toFieldSet(pruned, t))).intersection(E(lastSet.set));
  return removeItems(merged, toRemove, t);
}
