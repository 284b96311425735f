import { SsaEngineError } from '../errors.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import type { Value } from '../value/value.js';
import type { Path } from './field-set.js';
import { fieldName, indexElement, keyElement, parsePE, valueElement, type KeyPair, type PathElement } from './path-element.js';

/**
 * Parses a field path written in either form (01 §2.5):
 * - human form, as kubectl prints it: `.spec.containers[name="nginx"].image`, `[=v]`, `[0]`;
 * - FieldsV1 dotted form: `f:spec.f:containers.k:{"name":"nginx"}.f:image`.
 *
 * A human field name may contain dots (`.metadata.labels.app.kubernetes.io/name`). With a `type`
 * the ambiguity is resolved by the schema: at a map whose next segment is not a declared struct
 * field and whose elements are not maps, the rest of the text up to `[` or the end is one key.
 * Without a type every dot separates. In the dotted form a `.` separates only when followed by
 * `f:`, `k:`, `v:` or `i:`. Throws `invalid-path` for malformed text.
 */
export function parsePath(text: string, type?: ResolvedType): Path {
  if (typeof text !== 'string') throw new SsaEngineError('invalid-path', 'a path must be a string');
  if (text === '' || text === '.') return [];
  if (/^[fkvi]:/.test(text)) return parseDotted(text);
  if (text[0] !== '.' && text[0] !== '[') {
    throw new SsaEngineError('invalid-path', `a path starts with "." or "[" (human form) or "f:" (FieldsV1 form): ${JSON.stringify(text)}`);
  }
  return parseHuman(text, type);
}

function parseDotted(text: string): Path {
  const out: PathElement[] = [];
  let i = 0;
  while (i < text.length) {
    const tag = text[i];
    let end: number;
    if (tag === 'k' || tag === 'v') {
      end = jsonEnd(text, i + 2);
    } else {
      end = i + 2;
      while (end < text.length && !(text[end] === '.' && /^[fkvi]:/.test(text.slice(end + 1, end + 3)))) end++;
    }
    let pe: PathElement | undefined;
    try {
      pe = parsePE(text.slice(i, end));
    } catch (e) {
      throw new SsaEngineError('invalid-path', `invalid path ${JSON.stringify(text)}: ${(e as Error).message}`);
    }
    if (pe === undefined) throw new SsaEngineError('invalid-path', `unknown path element in ${JSON.stringify(text)}`);
    out.push(pe);
    if (end === text.length) break;
    if (text[end] !== '.') throw new SsaEngineError('invalid-path', `expected "." at ${end} in ${JSON.stringify(text)}`);
    i = end + 1;
    if (i === text.length) throw new SsaEngineError('invalid-path', `path ends with "." : ${JSON.stringify(text)}`);
  }
  return out;
}

/** End (exclusive) of the JSON value starting at `start`: a string, a balanced container, or a bare token. */
function jsonEnd(text: string, start: number): number {
  const first = text[start];
  if (first !== '"' && first !== '{' && first !== '[') {
    let i = start;
    while (i < text.length && !(text[i] === '.' && /^[fkvi]:/.test(text.slice(i + 1, i + 3)))) i++;
    return i;
  }
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return i + 1;
      }
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new SsaEngineError('invalid-path', `unterminated JSON in path ${JSON.stringify(text)}`);
}

function parseHuman(text: string, type: ResolvedType | undefined): Path {
  const out: PathElement[] = [];
  let t = type;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      let end = i + 1;
      while (end < text.length && text[end] !== '.' && text[end] !== '[') end++;
      let name = text.slice(i + 1, end);
      const m = t?.map;
      if (m && !m.fields.has(name) && m.elementType && !m.elementType.map) {
        // A map element (label, annotation, data key): the rest up to `[` or the end is the key.
        end = i + 1;
        while (end < text.length && text[end] !== '[') end++;
        name = text.slice(i + 1, end);
      }
      if (name === '') throw new SsaEngineError('invalid-path', `empty field name at ${i} in ${JSON.stringify(text)}`);
      out.push(fieldName(name));
      t = m ? (m.fields.get(name)?.type ?? m.elementType) : undefined;
      i = end;
    } else if (c === '[') {
      const end = bracketEnd(text, i);
      out.push(parseBracket(text.slice(i + 1, end), text));
      t = t?.list?.elementType;
      i = end + 1;
    } else {
      throw new SsaEngineError('invalid-path', `unexpected ${JSON.stringify(c)} at ${i} in ${JSON.stringify(text)}`);
    }
  }
  return out;
}

function bracketEnd(text: string, start: number): number {
  let inString = false;
  let depth = 0;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if ((c === ']' || c === '}') && depth > 0) depth--;
    else if (c === ']') return i;
  }
  throw new SsaEngineError('invalid-path', `unterminated "[" in ${JSON.stringify(text)}`);
}

function parseBracket(inner: string, text: string): PathElement {
  if (/^[0-9]+$/.test(inner)) return indexElement(Number(inner));
  if (inner.startsWith('=')) return valueElement(parseValue(inner.slice(1), text));
  const pairs: KeyPair[] = [];
  for (const part of splitTopLevel(inner)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new SsaEngineError('invalid-path', `expected name=value in [${inner}] of ${JSON.stringify(text)}`);
    pairs.push({ name: part.slice(0, eq), value: parseValue(part.slice(eq + 1), text) });
  }
  if (pairs.length === 0) throw new SsaEngineError('invalid-path', `empty key in ${JSON.stringify(text)}`);
  return keyElement(pairs);
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let inString = false;
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(s.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(s.slice(from));
  return parts;
}

/** A value as printed in the human form: JSON (strings quoted) or, leniently, a bare string. */
function parseValue(s: string, text: string): Value {
  if (s === '') throw new SsaEngineError('invalid-path', `empty value in ${JSON.stringify(text)}`);
  try {
    return JSON.parse(s) as Value;
  } catch {
    if (s.startsWith('"')) throw new SsaEngineError('invalid-path', `invalid quoted value ${s} in ${JSON.stringify(text)}`);
    return s;
  }
}
