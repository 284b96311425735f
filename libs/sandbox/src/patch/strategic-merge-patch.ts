import type { ResolvedType } from '../../../ssa-engine/src/index.js';
import { badRequest } from '../api-error.js';
import { isObject } from '../json.js';

type Json = unknown;
type JsonMap = Record<string, Json>;

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ORDER = '$setElementOrder/';
const DELETE_PRIMITIVE = '$deleteFromPrimitiveList/';

/** Sets a key without ever touching a prototype (`__proto__` in a patch is just a key). */
function set(o: JsonMap, k: string, v: Json): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** How a list field is patched, read from the SMD schema (list-map keys stand in for patchMergeKey). */
type ListStrategy = { kind: 'replace' } | { kind: 'merge-primitives' } | { kind: 'merge-by-key'; key: string };

function listStrategy(t: ResolvedType | undefined): ListStrategy {
  const l = t?.list;
  if (!l || l.atomic || !l.associative) return { kind: 'replace' };
  if (l.keys.length === 0) return { kind: 'merge-primitives' };
  return { kind: 'merge-by-key', key: l.keys[0]! };
}

function fieldType(t: ResolvedType | undefined, key: string): ResolvedType | undefined {
  const m = t?.map;
  if (!m) return undefined;
  return m.fields.get(key)?.type ?? m.elementType;
}

/** Removes the SMP directives from a value that has nothing to merge into. */
function stripDirectives(v: Json, t: ResolvedType | undefined): Json {
  if (Array.isArray(v)) {
    const el = t?.list?.elementType;
    return v.filter((x) => !(isObject(x) && x[DIRECTIVE] !== undefined)).map((x) => stripDirectives(x, el));
  }
  if (!isObject(v)) return v;
  const out: JsonMap = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === DIRECTIVE || k === RETAIN_KEYS || k.startsWith(SET_ORDER) || k.startsWith(DELETE_PRIMITIVE)) continue;
    if (x === null) continue;
    set(out, k, stripDirectives(x, fieldType(t, k)));
  }
  return out;
}

function sameKey(a: Json, b: Json): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function mergeList(original: Json[], patch: Json[], t: ResolvedType | undefined): Json[] {
  const strategy = listStrategy(t);
  const el = t?.list?.elementType;
  if (patch.some((p) => isObject(p) && p[DIRECTIVE] === 'replace')) {
    return stripDirectives(patch.filter((p) => !(isObject(p) && p[DIRECTIVE] === 'replace')), t) as Json[];
  }
  switch (strategy.kind) {
    case 'replace':
      return stripDirectives(patch, t) as Json[];
    case 'merge-primitives': {
      const out = [...original];
      for (const p of patch) if (!out.some((o) => sameKey(o, p))) out.push(p);
      return out;
    }
    case 'merge-by-key': {
      const key = strategy.key;
      const out = [...original];
      for (const p of patch) {
        if (!isObject(p)) throw badRequest(`unable to find api field in struct for the merge key "${key}": list item is not a map`);
        if (!(key in p)) throw badRequest(`map: ${JSON.stringify(p)} does not contain declared merge key: ${key}`);
        const i = out.findIndex((o) => isObject(o) && sameKey(o[key], p[key]));
        if (p[DIRECTIVE] === 'delete') {
          if (i >= 0) out.splice(i, 1);
          continue;
        }
        if (i >= 0) out[i] = mergeMap(out[i] as JsonMap, p, el);
        else out.push(stripDirectives(p, el));
      }
      return out;
    }
  }
}

/** Orders a merged list as `$setElementOrder` says; items it does not name keep their place after those it does. */
function applyOrder(list: Json[], order: Json[], t: ResolvedType | undefined): Json[] {
  const s = listStrategy(t);
  const id = (x: Json) => (s.kind === 'merge-by-key' && isObject(x) ? JSON.stringify(x[s.key]) : JSON.stringify(x));
  const rank = new Map(order.map((o, i) => [id(o), i]));
  const named = list.filter((x) => rank.has(id(x))).sort((a, b) => rank.get(id(a))! - rank.get(id(b))!);
  const others = list.filter((x) => !rank.has(id(x)));
  return [...named, ...others];
}

function mergeMap(original: JsonMap, patch: JsonMap, t: ResolvedType | undefined): JsonMap | undefined {
  const directive = patch[DIRECTIVE];
  if (directive === 'replace') return stripDirectives(patch, t) as JsonMap;
  if (directive === 'delete') return undefined;
  if (directive !== undefined) throw badRequest(`Unknown patch type: ${String(directive)}`);
  const out: JsonMap = { ...original };
  const retain = patch[RETAIN_KEYS];
  if (retain !== undefined) {
    if (!Array.isArray(retain)) throw badRequest('invalid patch: $retainKeys must be a list');
    for (const k of Object.keys(out)) if (!retain.includes(k)) delete out[k];
  }
  const orders: [string, Json[]][] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (k === RETAIN_KEYS) continue;
    if (k.startsWith(SET_ORDER)) {
      if (!Array.isArray(v)) throw badRequest(`invalid patch: ${k} must be a list`);
      orders.push([k.slice(SET_ORDER.length), v]);
      continue;
    }
    if (k.startsWith(DELETE_PRIMITIVE)) {
      const field = k.slice(DELETE_PRIMITIVE.length);
      if (!Array.isArray(v)) throw badRequest(`invalid patch: ${k} must be a list`);
      const cur = out[field];
      if (Array.isArray(cur)) set(out, field, cur.filter((x) => !v.some((d) => sameKey(d, x))));
      continue;
    }
    if (v === null) {
      delete out[k];
      continue;
    }
    const ft = fieldType(t, k);
    const cur = Object.prototype.hasOwnProperty.call(out, k) ? out[k] : undefined;
    if (isObject(v) && isObject(cur)) {
      const m = mergeMap(cur, v, ft);
      if (m === undefined) delete out[k];
      else set(out, k, m);
    } else if (isObject(v)) {
      if (v[DIRECTIVE] === 'delete') delete out[k];
      else set(out, k, stripDirectives(v, ft));
    } else if (Array.isArray(v) && Array.isArray(cur)) set(out, k, mergeList(cur, v, ft));
    else if (Array.isArray(v)) set(out, k, mergeList([], v, ft));
    else set(out, k, v);
  }
  for (const [field, order] of orders) {
    const cur = out[field];
    if (Array.isArray(cur)) set(out, field, applyOrder(cur, order, fieldType(t, field)));
  }
  return out;
}

/**
 * Applies a strategic merge patch as kubectl sends them: maps merge, `null` deletes, lists merge
 * by their patch merge key (the first list-map key of the schema), sets of scalars merge, other
 * lists replace; `$patch: replace|delete`, `$retainKeys`, `$setElementOrder/…` and
 * `$deleteFromPrimitiveList/…` are honoured.
 */
export function applyStrategicMergePatch(original: JsonMap, patch: Json, type: ResolvedType): JsonMap {
  if (!isObject(patch)) throw badRequest('the body of the request was not a JSON object');
  return mergeMap(original, patch, type) ?? {};
}
