import { MAX_DEPTH, SsaEngineError } from '../errors.js';
import { pathToHuman } from '../fieldpath/field-set.js';
import { peEquals, peToHuman, type PathElement } from '../fieldpath/path-element.js';
import type { ResolvedList, ResolvedMap, ResolvedType } from '../schema/resolved-schema.js';
import { isMap, mapSize, setKey, type Value, type ValueMap } from '../value/value.js';
import { deduceFacets, handlerOf, LIST, MAP, SCALAR } from './atom.js';
import { fieldPE, listItemPE } from './list-item.js';
import { scalarIssue, type ValidationIssue } from './validate.js';

/**
 * The Apply merge (03 §5): the configuration wins at every leaf, nothing is removed. Associative
 * lists are merged item by item in the order of 03 §5.1. Throws a `validation` error for config
 * duplicates or unidentifiable items.
 */
export function merge(live: Value | undefined, config: Value | undefined, type: ResolvedType): Value | undefined {
  const issues: ValidationIssue[] = [];
  const out = node(live, config, type, [], issues);
  if (issues.length > 0) {
    const msg = issues.length === 1 ? fmt(issues[0]!) : ['errors:', ...issues.map((i) => '  ' + fmt(i))].join('\n');
    throw new SsaEngineError('validation', msg, issues[0]!.path);
  }
  return out;
}

function fmt(i: ValidationIssue): string {
  return i.path ? `${i.path}: ${i.message}` : i.message;
}

interface Walker {
  inLeaf: boolean;
  out: Value | undefined;
}

function node(l: Value | undefined, r: Value | undefined, t: ResolvedType, path: PathElement[], issues: ValidationIssue[]): Value | undefined {
  if (path.length > MAX_DEPTH) throw new SsaEngineError('too-deep', `object nested deeper than ${MAX_DEPTH} levels`);
  const fl = deduceFacets(t, l);
  const fr = deduceFacets(t, r);
  const w: Walker = { inLeaf: false, out: undefined };
  if (r === undefined) handle(fl, l, r, t, path, issues, w);
  else if (l === undefined || fl === fr) handle(fr, l, r, t, path, issues, w);
  else {
    handle(fl, l, r, t, path, issues, { inLeaf: false, out: undefined });
    handle(fr, l, r, t, path, issues, w);
  }
  return w.out;
}

function leaf(l: Value | undefined, r: Value | undefined, w: Walker): void {
  if (w.inLeaf) return;
  w.inLeaf = true;
  w.out = r !== undefined ? r : l;
}

function handle(bits: number, l: Value | undefined, r: Value | undefined, t: ResolvedType, path: PathElement[], issues: ValidationIssue[], w: Walker): void {
  switch (handlerOf(bits)) {
    case SCALAR: {
      const le = scalarIssue(t.scalar!, l);
      const re = scalarIssue(t.scalar!, r);
      if (le && re) {
        const at = pathToHuman(path);
        issues.push({ code: 'type-mismatch', path: at, message: 'lhs: ' + le }, { code: 'type-mismatch', path: at, message: 'rhs: ' + re });
        return;
      }
      return leaf(l, r, w);
    }
    case LIST:
      return list(t.list!, l, r, path, issues, w);
    case MAP:
      return map(t.map!, l, r, path, issues, w);
  }
}

interface Indexed {
  pes: PathElement[];
  /** Item by element; `null` when the element is duplicated (live side only). */
  byPE: Map<string, Value>;
}

function index(lt: ResolvedList, items: readonly Value[] | undefined, allowDup: boolean, path: PathElement[], issues: ValidationIssue[]): Indexed {
  const pes: PathElement[] = [];
  const byPE = new Map<string, Value>();
  const at = () => pathToHuman(path);
  (items ?? []).forEach((item, i) => {
    const pe = listItemPE(lt, item);
    if (typeof pe === 'string') {
      issues.push({ code: 'invalid-list-item', path: at(), message: `element ${i}: ${pe}` });
      return;
    }
    if (byPE.has(pe.str)) {
      if (!allowDup) {
        issues.push({ code: 'duplicate-key', path: at(), message: `duplicate entries for key ${peToHuman(pe)}` });
        return;
      }
      byPE.set(pe.str, null);
    } else byPE.set(pe.str, item);
    pes.push(pe);
  });
  return { pes, byPE };
}

function list(lt: ResolvedList, l: Value | undefined, r: Value | undefined, path: PathElement[], issues: ValidationIssue[], w: Walker): void {
  const ll = Array.isArray(l) ? (l as readonly Value[]) : undefined;
  const rl = Array.isArray(r) ? (r as readonly Value[]) : undefined;
  if (lt.atomic || ((!ll || ll.length === 0) && (!rl || rl.length === 0))) return leaf(l, r, w);
  const before = issues.length;
  const R = index(lt, rl, false, path, issues);
  const L = index(lt, ll, true, path, issues);
  if (issues.length !== before) return;

  const shared = R.pes.filter((pe) => L.byPE.has(pe.str));
  let si = 0;
  let next: PathElement | undefined = shared[si++];
  const emitted = new Set<string>();
  const out: Value[] = [];
  const itemIssues: ValidationIssue[] = []; // Go drops errors of merged items; so do we
  const mergeItem = (pe: PathElement, lv: Value | undefined, rv: Value | undefined) => {
    path.push(pe);
    const m = node(lv, rv, lt.elementType, path, itemIssues);
    path.pop();
    if (m !== undefined) out.push(m);
  };
  const liveFor = (pe: PathElement): Value | undefined => L.byPE.get(pe.str);
  const lLen = L.pes.length;
  const rLen = R.pes.length;
  for (let li = 0, ri = 0; li < lLen || ri < rLen; ) {
    if (li < lLen && ri < rLen) {
      const pe = L.pes[li]!;
      if (peEquals(pe, R.pes[ri]!)) {
        emitted.add(pe.str);
        mergeItem(pe, liveFor(pe), R.byPE.get(pe.str));
        li++;
        ri++;
        next = shared[si++];
        continue;
      }
      if (R.byPE.has(pe.str) && next !== undefined && !peEquals(next, pe)) {
        li++; // a shared item: it is placed later, at its config position
        continue;
      }
    }
    if (li < lLen) {
      const pe = L.pes[li]!;
      if (!R.byPE.has(pe.str)) {
        mergeItem(pe, ll![li], undefined); // live-only item stays in place
        li++;
        continue;
      } else if (emitted.has(pe.str)) li++;
    }
    if (ri < rLen) {
      const pe = R.pes[ri]!;
      emitted.add(pe.str);
      mergeItem(pe, liveFor(pe), R.byPE.get(pe.str));
      ri++;
      if (next !== undefined && peEquals(next, pe)) next = shared[si++];
    }
  }
  if (out.length > 0) w.out = out;
}

function map(mt: ResolvedMap, l: Value | undefined, r: Value | undefined, path: PathElement[], issues: ValidationIssue[], w: Walker): void {
  const lm = isMap(l) ? (l as ValueMap) : undefined;
  const rm = isMap(r) ? (r as ValueMap) : undefined;
  if (mt.atomic || ((!lm || mapSize(lm) === 0) && (!rm || mapSize(rm) === 0))) return leaf(l, r, w);
  const out: Record<string, Value> = {};
  let n = 0;
  const hasOwn = Object.prototype.hasOwnProperty;
  const visit = (key: string, lv: Value | undefined, rv: Value | undefined) => {
    const f = mt.fields.get(key);
    const ft = f ? f.type : mt.elementType;
    if (!ft) {
      path.push(fieldPE(key));
      issues.push({ code: 'schema-error', path: pathToHuman(path), message: 'schema error: no type found matching: inlined type' });
      path.pop();
      return;
    }
    path.push(fieldPE(key));
    const m = node(lv, rv, ft, path, issues);
    path.pop();
    if (m !== undefined) {
      setKey(out, key, m);
      n++;
    }
  };
  if (lm) for (const key of Object.keys(lm)) visit(key, lm[key], rm && hasOwn.call(rm, key) ? rm[key] : undefined);
  if (rm) for (const key of Object.keys(rm)) if (!(lm && hasOwn.call(lm, key))) visit(key, undefined, rm[key]);
  if (n > 0) w.out = out;
}
