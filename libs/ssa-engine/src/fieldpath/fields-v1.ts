import { MAX_DEPTH, SsaEngineError } from '../errors.js';
import { quotePlain } from '../value/json-encode.js';
import { FieldSet, pathToHuman } from './field-set.js';
import { comparePE, parsePE, peToHuman, type PathElement } from './path-element.js';

/** A FieldsV1 document as `JSON.parse` gives it: nested objects keyed by element strings. */
export type FieldsV1 = { readonly [key: string]: FieldsV1 | null };

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Parses FieldsV1 (01 §4.5) — the JSON text or the already-parsed object — into a `FieldSet`.
 * Keys need not be sorted; unknown element types are dropped with their subtree; malformed input
 * throws `invalid-fields-v1`.
 */
export function parseFieldsV1(input: string | object): FieldSet {
  let obj: unknown = input;
  if (typeof input === 'string') {
    try {
      obj = JSON.parse(input);
    } catch (e) {
      throw new SsaEngineError('invalid-fields-v1', `invalid FieldsV1 JSON: ${(e as Error).message}`);
    }
  }
  if (obj === null) return FieldSet.EMPTY;
  if (typeof obj !== 'object' || Array.isArray(obj)) {
    throw new SsaEngineError('invalid-fields-v1', 'FieldsV1 must be a JSON object');
  }
  return parseNode(obj as Record<string, unknown>, []).set ?? FieldSet.EMPTY;
}

interface Parsed {
  set: FieldSet | undefined;
  isMember: boolean;
}

const LEAF: Parsed = { set: undefined, isMember: true };

/**
 * Parsed path elements by their FieldsV1 string. The same few hundred keys (`f:spec`,
 * `k:{"name":"app"}`, …) recur in every entry; elements are immutable, so sharing them is safe.
 * Bounded: cleared when full.
 */
const PE_CACHE = new Map<string, PathElement | null>();
const PE_CACHE_MAX = 100_000;

function parsePECached(key: string): PathElement | undefined {
  const hit = PE_CACHE.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const pe = parsePE(key);
  if (PE_CACHE.size >= PE_CACHE_MAX) PE_CACHE.clear();
  if (key.length <= 1024) PE_CACHE.set(key, pe ?? null);
  return pe;
}

/** `path` leads to this node; its human form is computed only when an error needs it. */
function parseNode(obj: Record<string, unknown>, path: PathElement[]): Parsed {
  if (path.length > MAX_DEPTH) {
    throw new SsaEngineError('too-deep', `FieldsV1 nested deeper than ${MAX_DEPTH} levels`, pathToHuman(path));
  }
  let isMember = false;
  const members: PathElement[] = [];
  const children: PathElement[] = [];
  const sets: FieldSet[] = [];
  let sorted = true;
  for (const key in obj) {
    if (!hasOwn.call(obj, key)) continue;
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe: PathElement | undefined;
    try {
      pe = parsePECached(key);
    } catch (e) {
      const at = pathToHuman(path);
      throw new SsaEngineError('invalid-fields-v1', `${at || '<root>'}: ${(e as Error).message}`, at);
    }
    if (pe === undefined) continue;
    const value = obj[key];
    let sub: Parsed;
    if (value === null) sub = LEAF;
    else if (typeof value !== 'object' || Array.isArray(value)) {
      const here = pathToHuman(path) + peToHuman(pe);
      throw new SsaEngineError('invalid-fields-v1', `${here}: expected an object, got ${JSON.stringify(value)}`, here);
    } else {
      path.push(pe);
      sub = parseNode(value as Record<string, unknown>, path);
      path.pop();
    }
    if (sub.isMember) {
      if (members.length > 0 && comparePE(members[members.length - 1]!, pe) >= 0) sorted = false;
      members.push(pe);
    }
    if (sub.set && !sub.set.isEmpty) {
      if (children.length > 0 && comparePE(children[children.length - 1]!, pe) >= 0) sorted = false;
      children.push(pe);
      sets.push(sub.set);
    }
  }
  if (members.length === 0 && children.length === 0) return LEAF;
  if (!sorted) return { set: canonicalize(members, children, sets), isMember };
  return { set: new FieldSet(members, children, sets), isMember };
}

/** Sorts and de-duplicates an unsorted node; for a repeated child element the later one wins. */
function canonicalize(members: PathElement[], children: PathElement[], sets: FieldSet[]): FieldSet {
  const m = new Map<string, PathElement>();
  for (const pe of members) m.set(pe.str, pe);
  const c = new Map<string, [PathElement, FieldSet]>();
  children.forEach((pe, i) => c.set(pe.str, [pe, sets[i]!]));
  const entries = [...c.values()].sort((x, y) => comparePE(x[0], y[0]));
  return new FieldSet(
    [...m.values()].sort(comparePE),
    entries.map((e) => e[0]),
    entries.map((e) => e[1]),
  );
}

/**
 * Serialises a set to FieldsV1 bytes exactly as the apiserver does (01 §4.1–4.4): no whitespace,
 * `"."` first where a path is both owned and has owned descendants, entries in element order.
 */
export function serializeFieldsV1(set: FieldSet): string {
  return emit(set, false);
}

const QUOTED = new WeakMap<PathElement, string>();

/** The element's FieldsV1 string as a JSON object key, memoised per (shared) element. */
function quotedKey(pe: PathElement): string {
  let q = QUOTED.get(pe);
  if (q === undefined) {
    q = quotePlain(pe.str);
    QUOTED.set(pe, q);
  }
  return q;
}

function emit(node: FieldSet, includeSelf: boolean): string {
  let out = includeSelf ? '{".":{}' : '{';
  let first = !includeSelf;
  const ms = node.members;
  const cs = node.children;
  let i = 0;
  let j = 0;
  while (i < ms.length || j < cs.length) {
    const c = i === ms.length ? 1 : j === cs.length ? -1 : comparePE(ms[i]!, cs[j]!);
    if (first) first = false;
    else out += ',';
    if (c < 0) {
      out += quotedKey(ms[i++]!) + ':{}';
    } else if (c > 0) {
      out += quotedKey(cs[j]!) + ':' + emit(node.childSets[j]!, false);
      j++;
    } else {
      out += quotedKey(cs[j]!) + ':' + emit(node.childSets[j]!, true);
      i++;
      j++;
    }
  }
  return out + '}';
}

/** The FieldsV1 object form of a set (what `JSON.parse(serializeFieldsV1(set))` gives). */
export function fieldsV1Object(set: FieldSet): FieldsV1 {
  return JSON.parse(serializeFieldsV1(set)) as FieldsV1;
}
