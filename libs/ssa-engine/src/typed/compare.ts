import { MAX_DEPTH, SsaEngineError } from '../errors.js';
import { FieldSet, FieldSetBuilder } from '../fieldpath/field-set.js';
import type { PathElement } from '../fieldpath/path-element.js';
import type { ResolvedList, ResolvedMap, ResolvedType } from '../schema/resolved-schema.js';
import { valueEquals } from '../value/compare.js';
import { isMap, mapSize, type Value, type ValueMap } from '../value/value.js';
import { deduceFacets, handlerOf, LIST, MAP, SCALAR } from './atom.js';
import { fieldPE, listItemPE } from './list-item.js';
import { scalarIssue } from './validate.js';

/** What changed between two objects (03 §4). */
export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

interface Acc {
  added: FieldSetBuilder;
  modified: FieldSetBuilder;
  removed: FieldSetBuilder;
}

/**
 * Compares two objects of the same type: leaves (scalars, atomic and empty containers) that were
 * added, modified or removed, plus the containers that appeared or disappeared as a whole.
 * `undefined` stands for an absent object (e.g. the empty object on create).
 */
export function compare(lhs: Value | undefined, rhs: Value | undefined, type: ResolvedType): Comparison {
  const acc: Acc = { added: new FieldSetBuilder(), modified: new FieldSetBuilder(), removed: new FieldSetBuilder() };
  if (lhs !== undefined || rhs !== undefined) node(lhs, rhs, type, [], acc);
  return { added: acc.added.build(), modified: acc.modified.build(), removed: acc.removed.build() };
}

/** Per-node walker state: whether this node was already recorded as a leaf. */
interface Walker {
  inLeaf: boolean;
}

function node(l: Value | undefined, r: Value | undefined, t: ResolvedType, path: PathElement[], acc: Acc): void {
  if (path.length > MAX_DEPTH) throw new SsaEngineError('too-deep', `object nested deeper than ${MAX_DEPTH} levels`);
  const fl = deduceFacets(t, l);
  const fr = deduceFacets(t, r);
  const w: Walker = { inLeaf: false };
  if (r === undefined) handle(fl, l, r, t, path, acc, w);
  else if (l === undefined || fl === fr) handle(fr, l, r, t, path, acc, w);
  else {
    handle(fl, l, r, t, path, acc, { inLeaf: false });
    handle(fr, l, r, t, path, acc, w);
  }
  if (!w.inLeaf) {
    if (l === undefined) acc.added.insert(path);
    else if (r === undefined) acc.removed.insert(path);
  }
}

function leaf(l: Value | undefined, r: Value | undefined, path: PathElement[], acc: Acc, w: Walker): void {
  if (w.inLeaf) return;
  w.inLeaf = true;
  if (l === undefined) acc.added.insert(path);
  else if (r === undefined) acc.removed.insert(path);
  else if (!valueEquals(r, l)) acc.modified.insert(path);
}

function handle(bits: number, l: Value | undefined, r: Value | undefined, t: ResolvedType, path: PathElement[], acc: Acc, w: Walker): void {
  switch (handlerOf(bits)) {
    case SCALAR:
      if (scalarIssue(t.scalar!, l) && scalarIssue(t.scalar!, r)) return;
      return leaf(l, r, path, acc, w);
    case LIST:
      return list(t.list!, l, r, path, acc, w);
    case MAP:
      return map(t.map!, l, r, path, acc, w);
  }
}

function asList(v: Value | undefined): readonly Value[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

function list(lt: ResolvedList, l: Value | undefined, r: Value | undefined, path: PathElement[], acc: Acc, w: Walker): void {
  const ll = asList(l);
  const rl = asList(r);
  if (lt.atomic || ((!ll || ll.length === 0) && (!rl || rl.length === 0))) return leaf(l, r, path, acc, w);
  // Index both sides by element; items that cannot be identified are validation errors, skipped.
  const lv = new Map<string, Value[]>();
  const rv = new Map<string, Value[]>();
  const order: PathElement[] = [];
  for (const item of ll ?? []) {
    const pe = listItemPE(lt, item);
    if (typeof pe === 'string') continue;
    const g = lv.get(pe.str);
    if (g) g.push(item);
    else {
      lv.set(pe.str, [item]);
      order.push(pe);
    }
  }
  for (const item of rl ?? []) {
    const pe = listItemPE(lt, item);
    if (typeof pe === 'string') continue;
    const g = rv.get(pe.str);
    if (g) g.push(item);
    else {
      rv.set(pe.str, [item]);
      if (!lv.has(pe.str)) order.push(pe);
    }
  }
  for (const pe of order) {
    const lg = lv.get(pe.str) ?? [];
    const rg = rv.get(pe.str) ?? [];
    if (lg.length <= 1 && rg.length <= 1) {
      item(pe, lg[0], rg[0], lt.elementType, path, acc);
    } else if (lg.length >= 2 && rg.length >= 2) {
      let same = lg.length === rg.length;
      for (let i = 0; same && i < lg.length; i++) same = valueEquals(lg[i], rg[i]);
      if (!same) {
        path.push(pe);
        acc.modified.insert(path);
        path.pop();
      }
    } else if (lg.length >= 2) {
      if (rg.length !== 0) item(pe, undefined, rg[0], lt.elementType, path, acc);
      path.push(pe);
      acc.removed.insert(path);
      path.pop();
    } else {
      if (lg.length !== 0) item(pe, lg[0], undefined, lt.elementType, path, acc);
      path.push(pe);
      acc.added.insert(path);
      path.pop();
    }
  }
}

function item(pe: PathElement, l: Value | undefined, r: Value | undefined, t: ResolvedType, path: PathElement[], acc: Acc): void {
  path.push(pe);
  node(l, r, t, path, acc);
  path.pop();
}

function map(mt: ResolvedMap, l: Value | undefined, r: Value | undefined, path: PathElement[], acc: Acc, w: Walker): void {
  const lm = isMap(l) ? (l as ValueMap) : undefined;
  const rm = isMap(r) ? (r as ValueMap) : undefined;
  if (mt.atomic || ((!lm || mapSize(lm) === 0) && (!rm || mapSize(rm) === 0))) return leaf(l, r, path, acc, w);
  const hasOwn = Object.prototype.hasOwnProperty;
  if (lm) {
    for (const key of Object.keys(lm)) {
      const rv = rm && hasOwn.call(rm, key) ? rm[key] : undefined;
      field(mt, key, lm[key], rv, path, acc);
    }
  }
  if (rm) {
    for (const key of Object.keys(rm)) {
      if (lm && hasOwn.call(lm, key)) continue;
      field(mt, key, undefined, rm[key], path, acc);
    }
  }
}

function field(mt: ResolvedMap, key: string, l: Value | undefined, r: Value | undefined, path: PathElement[], acc: Acc): void {
  const f = mt.fields.get(key);
  const ft = f ? f.type : mt.elementType;
  if (!ft) return; // undeclared field: a schema error Go reports and skips
  path.push(fieldPE(key));
  node(l, r, ft, path, acc);
  path.pop();
}
