import { compareStrings } from './compare.js';
import type { Value, ValueMap } from './value.js';

const HEX = '0123456789abcdef';
const NEEDS_PLAIN = /["\\\u0000-\u001f]/;
const NEEDS_HTML = /["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/;

function hex4(c: number): string {
  return '\\u' + HEX[(c >> 12) & 15] + HEX[(c >> 8) & 15] + HEX[(c >> 4) & 15] + HEX[c & 15];
}

/**
 * JSON string with json-iterator's plain escaper (01 §4.3): only `"`, `\` and control characters
 * are escaped; `<>&`, non-ASCII and U+2028/2029 are written raw. Used for FieldsV1 object keys.
 */
export function quotePlain(s: string): string {
  if (!NEEDS_PLAIN.test(s)) return '"' + s + '"';
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i);
    start = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      default:
        out += hex4(c);
    }
  }
  return out + s.slice(start) + '"';
}

/**
 * JSON string with the HTML-safe escaper of Go's standard encoder (01 §4.4): the plain rules plus
 * `<`, `>`, `&`, U+2028, U+2029 as `\u00XX`/`\u20XX`, and invalid UTF-16 (lone surrogates) as
 * `\ufffd`, which is what Go writes for the invalid UTF-8 they stand for.
 */
export function quoteHtmlSafe(s: string): string {
  if (!NEEDS_HTML.test(s)) return '"' + s + '"';
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | undefined;
    if (c < 0x20) {
      rep = c === 0x0a ? '\\n' : c === 0x0d ? '\\r' : c === 0x09 ? '\\t' : hex4(c);
    } else if (c === 0x22) rep = '\\"';
    else if (c === 0x5c) rep = '\\\\';
    else if (c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) rep = hex4(c);
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++; // a valid pair: copied raw
        continue;
      }
      rep = '\\ufffd';
    }
    if (rep === undefined) continue;
    out += s.slice(start, i) + rep;
    start = i + 1;
  }
  return out + s.slice(start) + '"';
}

/** Go's float encoding: like JSON.stringify for finite numbers, but `-0` stays `-0`. */
export function encodeNumber(n: number): string {
  if (n === 0 && 1 / n < 0) return '-0';
  return JSON.stringify(n);
}

/**
 * Compact JSON of a value as Go's standard-library-compatible encoder writes it inside `k:`/`v:`
 * path elements: HTML-safe strings, map members sorted by key (01 §4.4).
 */
export function encodeValueHtmlSafe(v: Value): string {
  switch (typeof v) {
    case 'string':
      return quoteHtmlSafe(v);
    case 'number':
      return encodeNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      if (v === null) return 'null';
      if (Array.isArray(v)) return '[' + v.map(encodeValueHtmlSafe).join(',') + ']';
      return encodeMap(v as ValueMap);
  }
}

function encodeMap(m: ValueMap): string {
  const keys = Object.keys(m).sort(compareStrings);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0) out += ',';
    out += quoteHtmlSafe(k) + ':' + encodeValueHtmlSafe(m[k]!);
  }
  return out + '}';
}
