import { SsaEngineError } from '../errors.js';
import { compareStrings, compareValues } from '../value/compare.js';
import { encodeValueHtmlSafe, quotePlain } from '../value/json-encode.js';
import { goFormatValue } from '../value/go-format.js';
import type { Value } from '../value/value.js';

/** Variant tags, in their order (01 §2.1): FieldName < Key < Value < Index. */
export const FIELD = 0;
export const KEY = 1;
export const VALUE = 2;
export const INDEX = 3;

export interface KeyPair {
  readonly name: string;
  readonly value: Value;
}

interface PathElementBase {
  /** The canonical FieldsV1 form (`f:name`, `k:{…}`, `v:…`, `i:N`): equal strings ⇔ equal elements. */
  readonly str: string;
}
export interface FieldNameElement extends PathElementBase {
  readonly kind: typeof FIELD;
  readonly name: string;
}
export interface KeyElement extends PathElementBase {
  readonly kind: typeof KEY;
  /** Sorted by name. */
  readonly pairs: readonly KeyPair[];
  /** True when decoded from FieldsV1, where every number is a float64 (matters for printing). */
  readonly floats: boolean;
}
export interface ValueElement extends PathElementBase {
  readonly kind: typeof VALUE;
  readonly value: Value;
  readonly floats: boolean;
}
export interface IndexElement extends PathElementBase {
  readonly kind: typeof INDEX;
  readonly index: number;
}

/** One step of a field path: a tagged union of the four variants (01 §2). */
export type PathElement = FieldNameElement | KeyElement | ValueElement | IndexElement;

export function fieldName(name: string): FieldNameElement {
  return { kind: FIELD, name, str: 'f:' + name };
}

/** A key element; `pairs` need not be sorted (they are sorted by name here). */
export function keyElement(pairs: readonly KeyPair[], floats = false): KeyElement {
  const sorted = pairs.length > 1 ? [...pairs].sort((a, b) => compareStrings(a.name, b.name)) : pairs;
  let str = 'k:{';
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0) str += ',';
    str += quotePlain(sorted[i]!.name) + ':' + encodeValueHtmlSafe(sorted[i]!.value);
  }
  return { kind: KEY, pairs: sorted, floats, str: str + '}' };
}

export function valueElement(value: Value, floats = false): ValueElement {
  return { kind: VALUE, value, floats, str: 'v:' + encodeValueHtmlSafe(value) };
}

export function indexElement(index: number): IndexElement {
  return { kind: INDEX, index, str: 'i:' + index };
}

export function peEquals(a: PathElement, b: PathElement): boolean {
  return a === b || a.str === b.str;
}

/** The total order of path elements (01 §2.1). */
export function comparePE(a: PathElement, b: PathElement): number {
  if (a === b) return 0;
  if (a.kind !== b.kind) return a.kind - b.kind;
  switch (a.kind) {
    case FIELD:
      return compareStrings(a.name, (b as FieldNameElement).name);
    case KEY: {
      if (a.str === b.str) return 0;
      const pa = a.pairs;
      const pb = (b as KeyElement).pairs;
      const n = Math.min(pa.length, pb.length);
      for (let i = 0; i < n; i++) {
        const c = compareStrings(pa[i]!.name, pb[i]!.name);
        if (c !== 0) return c;
        const v = compareValues(pa[i]!.value, pb[i]!.value);
        if (v !== 0) return v;
      }
      return pa.length - pb.length;
    }
    case VALUE:
      if (a.str === b.str) return 0;
      return compareValues(a.value, (b as ValueElement).value);
    case INDEX:
      return a.index - (b as IndexElement).index;
  }
}

/** Human form of one element (01 §2.5): `.name`, `[k=v,…]`, `[=v]`, `[i]`. */
export function peToHuman(pe: PathElement): string {
  switch (pe.kind) {
    case FIELD:
      return '.' + pe.name;
    case KEY:
      return '[' + pe.pairs.map((p) => `${p.name}=${goFormatValue(p.value, pe.floats)}`).join(',') + ']';
    case VALUE:
      return '[=' + goFormatValue(pe.value, pe.floats) + ']';
    case INDEX:
      return '[' + pe.index + ']';
  }
}

const INDEX_RE = /^[+-]?[0-9]+$/;

function parseJsonRest(s: string, what: string): unknown {
  try {
    return JSON.parse(s);
  } catch (e) {
    throw new SsaEngineError('invalid-path-element', `invalid ${what} path element ${JSON.stringify(s)}: ${(e as Error).message}`);
  }
}

/**
 * Parses one FieldsV1 element string (01 §2.3). Returns `undefined` for an element of unknown type
 * (forward compatibility: the caller drops it and its subtree); throws `invalid-path-element` for
 * malformed ones.
 */
export function parsePE(s: string): PathElement | undefined {
  if (s.length < 2) {
    throw new SsaEngineError('invalid-path-element', `key must be 2 characters long: ${JSON.stringify(s)}`);
  }
  if (s.charCodeAt(1) !== 0x3a) {
    throw new SsaEngineError('invalid-path-element', `missing colon: ${JSON.stringify(s)}`);
  }
  const rest = s.slice(2);
  switch (s.charCodeAt(0)) {
    case 0x66: // f
      return { kind: FIELD, name: rest, str: s };
    case 0x76: // v
      return valueElement(parseJsonRest(rest, 'value') as Value, true);
    case 0x6b: {
      // k
      const obj = parseJsonRest(rest, 'key');
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
        throw new SsaEngineError('invalid-path-element', `key path element is not a JSON object: ${JSON.stringify(s)}`);
      }
      const pairs: KeyPair[] = [];
      for (const name of Object.keys(obj)) pairs.push({ name, value: (obj as Record<string, Value>)[name]! });
      return keyElement(pairs, true);
    }
    case 0x69: // i
      if (!INDEX_RE.test(rest)) {
        throw new SsaEngineError('invalid-path-element', `invalid index path element: ${JSON.stringify(s)}`);
      }
      return indexElement(Number(rest));
    default:
      return undefined;
  }
}
