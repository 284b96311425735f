import type { Value, ValueMap } from './value.js';
import { compareStrings } from './compare.js';

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const HEX = '0123456789abcdef';

function hex(n: number, width: number): string {
  let s = '';
  for (let i = width - 1; i >= 0; i--) s += HEX[(n >> (i * 4)) & 15];
  return s;
}

/** Go `strconv.Quote` (as `%q` prints strings): printable runes raw, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // lone surrogate = invalid UTF-8, decoded as U+FFFD
    switch (cp) {
      case 0x22:
        out += '\\"';
        continue;
      case 0x5c:
        out += '\\\\';
        continue;
      case 0x07:
        out += '\\a';
        continue;
      case 0x08:
        out += '\\b';
        continue;
      case 0x0c:
        out += '\\f';
        continue;
      case 0x0a:
        out += '\\n';
        continue;
      case 0x0d:
        out += '\\r';
        continue;
      case 0x09:
        out += '\\t';
        continue;
      case 0x0b:
        out += '\\v';
        continue;
    }
    const c = String.fromCodePoint(cp);
    if (PRINTABLE.test(c)) out += c;
    else if (cp < 0x80) out += '\\x' + hex(cp, 2);
    else if (cp < 0x10000) out += '\\u' + hex(cp, 4);
    else out += '\\U' + hex(cp, 8);
  }
  return out + '"';
}

/**
 * Go `%v` of a float64: shortest round-trip digits, scientific notation iff the decimal exponent
 * is < -4 or >= 6 (Go uses precision 6 for that choice in the shortest format, 01 §2.5); the
 * exponent has a sign and at least two digits.
 */
export function goFormatFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return 1 / x < 0 ? '-0' : '0';
  const e = x.toExponential(); // shortest digits, e.g. "1.234567e+6"
  const at = e.indexOf('e');
  const exp = Number(e.slice(at + 1));
  if (exp < -4 || exp >= 6) {
    const mant = e.slice(0, at);
    const ae = Math.abs(exp);
    return mant + 'e' + (exp < 0 ? '-' : '+') + (ae < 10 ? '0' + ae : String(ae));
  }
  return String(x);
}

/**
 * The `%v`-style rendering of a key or set value in a human path (01 §2.5). `floats` is true for
 * values decoded from FieldsV1 (every number there is a float64), false for values from objects.
 */
export function goFormatValue(v: Value, floats: boolean): string {
  switch (typeof v) {
    case 'string':
      return goQuote(v);
    case 'number':
      return floats || !Number.isInteger(v) ? goFormatFloat(v) : String(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      if (v === null) return 'null';
      if (Array.isArray(v)) return '[' + v.map((x) => goFormatValue(x, floats)).join(',') + ']';
      return Object.keys(v as ValueMap)
        .sort(compareStrings)
        .map((k) => `${k}=${goFormatValue((v as ValueMap)[k]!, floats)}`)
        .join('');
  }
}
