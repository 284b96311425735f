import { MAX_DEPTH, SsaEngineError } from '../errors.js';
import { quotePlain } from '../value/json-encode.js';
import { FieldSet } from './field-set.js';
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
  return parseNode(obj as Record<string, unknown>, '', 0).set ?? FieldSet.EMPTY;
}

interface Parsed {
  set: FieldSet | undefined;
  isMember: boolean;
}

function parseNode(obj: Record<string, unknown>, at: string, depth: number): Parsed {
  if (depth > MAX_DEPTH) throw new SsaEngineError('too-deep', `FieldsV1 nested deeper than ${MAX_DEPTH} levels`, at);
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
      pe = parsePE(key);
    } catch (e) {
      throw new SsaEngineError('invalid-fields-v1', `${at || '<root>'}: ${(e as Error).message}`, at);
    }
    if (pe === undefined) continue;
    const value = obj[key];
    const here = at + peToHuman(pe);
    let sub: Parsed;
    if (value === null) sub = { set: undefined, isMember: true };
    else if (typeof value !== 'object' || Array.isArray(value)) {
      throw new SsaEngineError('invalid-fields-v1', `${here}: expected an object, got ${JSON.stringify(value)}`, here);
    } else sub = parseNode(value as Record<string, unknown>, here, depth + 1);
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
  if (members.length === 0 && children.length === 0) return { set: undefined, isMember: true };
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
      out += quotePlain(ms[i++]!.str) + ':{}';
    } else if (c > 0) {
      out += quotePlain(cs[j]!.str) + ':' + emit(node.childSets[j]!, false);
      j++;
    } else {
      out += quotePlain(cs[j]!.str) + ':' + emit(node.childSets[j]!, true);
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
