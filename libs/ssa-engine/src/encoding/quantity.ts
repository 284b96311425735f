/**
 * Kubernetes `resource.Quantity` as the apiserver reads and writes it (k8s.io/apimachinery
 * `api/resource`): `ParseQuantity` followed by `MarshalJSON`. Exact decimal arithmetic on bigints;
 * no floating point.
 */
import { SsaEngineError } from '../errors.js';

/** The three quantity formats; the suffix of the parsed string decides which one a value keeps. */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A parsed quantity: `mantissa × 10^exponent`, plus what the canonical form needs. */
export interface ParsedQuantity {
  readonly mantissa: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
  /** The input string when the parser keeps it as the serialised form (Go caches it in `q.s`). */
  readonly cached: string | undefined;
}

const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const SUFFIX_CHARS = 'eEinumkKMGTP';
const NANO = -9;
/** Decimal digits an int64 always holds (Go's `maxInt64Factors`). */
const MAX_INT64_FACTORS = 18;
const MAX_INT64 = (1n << 63n) - 1n;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function invalid(str: string, why: string): SsaEngineError {
  return new SsaEngineError('invalid-object', `quantities must be valid (${why}): ${JSON.stringify(str)}`);
}

interface Scanned {
  positive: boolean;
  /** Sign, integer part and fraction as written (Go's `value`). */
  value: string;
  /** Integer digits without leading zeros, `"0"` when there are none. */
  num: string;
  denom: string;
  suffix: string;
}

/** Go's `parseQuantityString`: sign, digits, optional fraction, suffix. */
function scan(str: string): Scanned {
  let pos = 0;
  const end = str.length;
  let positive = true;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  const numStart = pos;
  while (pos < end && isDigit(str[pos])) pos++;
  let num = str.slice(numStart, pos);
  if (pos >= end) return { positive, value: str, num, denom: '', suffix: '' };
  if (num === '') num = '0';
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    const denomStart = pos;
    while (pos < end && isDigit(str[pos])) pos++;
    denom = str.slice(denomStart, pos);
    if (pos >= end) return { positive, value: str, num, denom, suffix: '' };
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos]!)) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) throw invalid(str, 'bad format');
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

/** Go's `suffixer.interpret`: base, exponent and format of a suffix. */
function interpretSuffix(str: string, suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } {
  const dec = DECIMAL_SUFFIXES[suffix];
  if (Object.hasOwn(DECIMAL_SUFFIXES, suffix) && dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = BINARY_SUFFIXES[suffix];
  if (Object.hasOwn(BINARY_SUFFIXES, suffix) && bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?\d+$/.test(suffix.slice(1))) {
    const exponent = Number(suffix.slice(1));
    if (Number.isSafeInteger(exponent) && Math.abs(exponent) < 2 ** 31) {
      return { base: 10, exponent, format: 'DecimalExponent' };
    }
  }
  throw invalid(str, 'unable to parse the suffix');
}

/** Removes trailing factors of `base` from `value`: returns the rest and how many were removed. */
function removeFactors(value: bigint, base: bigint): [bigint, number] {
  let times = 0;
  while (value !== 0n && value % base === 0n) {
    value /= base;
    times++;
  }
  return [value, times];
}

/**
 * Parses a quantity exactly as `resource.ParseQuantity` does: values finer than 1n are rounded
 * up (away from zero) to 1n, BinarySI values are capped at 2^63-1, and a string already in
 * canonical form is remembered as its own serialisation.
 */
export function parseQuantity(input: string): ParsedQuantity {
  const str = input;
  if (str.length === 0) throw invalid(str, 'empty');
  if (str === '0') return { mantissa: 0n, exponent: 0, format: 'DecimalSI', cached: str };
  const { positive, value, num, denom, suffix } = scan(str);
  const { base, exponent, format: parsedFormat } = interpretSuffix(str, suffix);
  let format = parsedFormat;

  // Go's int64 fast path; it decides whether the input string is kept as the serialised form.
  let precision: number;
  let scale = 0;
  let multiplier = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      multiplier = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc(Math.fround((exponent * 3) / 10)) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = MAX_INT64_FACTORS - (num.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= NANO) {
      const shifted = num + denom;
      const digits = BigInt(shifted);
      if (digits > MAX_INT64) throw invalid(str, 'numeric part out of range');
      const product = digits * multiplier;
      if (product <= MAX_INT64) {
        const mantissa = positive ? product : -product;
        let canonical: boolean;
        if (format === 'BinarySI') canonical = exponent % 10 === 0 && (digits & 7n) !== 0n;
        else canonical = scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return { mantissa, exponent: scale, format, cached: canonical ? str : undefined };
      }
    }
  }

  // The general path (inf.Dec in Go).
  const intPart = value.replace(/^[+-]/, '').split('.')[0] ?? '';
  const fracPart = value.includes('.') ? (value.split('.')[1] ?? '') : '';
  if (!/^\d*$/.test(intPart) || !/^\d*$/.test(fracPart) || intPart.length + fracPart.length === 0) {
    throw invalid(str, 'unable to parse the numeric part');
  }
  let mantissa = BigInt(intPart + fracPart || '0');
  let exp = -fracPart.length;
  if (base === 10) exp += exponent;
  else mantissa <<= BigInt(exponent);
  if (mantissa !== 0n && exp < NANO) {
    // Round up (away from zero; the sign is applied afterwards) to a multiple of 1n.
    const divisor = 10n ** BigInt(NANO - exp);
    const q = mantissa / divisor;
    mantissa = mantissa % divisor === 0n ? q : q + 1n;
    exp = NANO;
  }
  if (format === 'BinarySI' && compareDecimal(mantissa, exp, MAX_INT64) > 0) {
    mantissa = MAX_INT64;
    exp = 0;
  }
  if (format === 'BinarySI' && mantissa !== 0n && compareDecimal(mantissa, exp, 1n) < 0) format = 'DecimalSI';
  return { mantissa: positive ? mantissa : -mantissa, exponent: exp, format, cached: undefined };
}

/** Compares `mantissa × 10^exp` with the integer `n`: -1, 0 or 1. */
function compareDecimal(mantissa: bigint, exp: number, n: bigint): number {
  const [a, b] = exp >= 0 ? [mantissa * 10n ** BigInt(exp), n] : [mantissa, n * 10n ** BigInt(-exp)];
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Go's `Quantity.CanonicalizeBytes`: the canonical number and suffix of a parsed quantity. */
export function canonicalQuantityString(q: ParsedQuantity): string {
  if (q.mantissa === 0n) return '0';
  let format = q.format;
  let integer: bigint | undefined;
  if (format === 'BinarySI') {
    const negative = q.mantissa < 0n;
    const abs = negative ? -q.mantissa : q.mantissa;
    // |q| < 1024 is shown as DecimalSI; so is a value with a fraction ("don't lose precision").
    if (q.exponent >= 0) integer = abs * 10n ** BigInt(q.exponent);
    else {
      const d = 10n ** BigInt(-q.exponent);
      if (abs % d === 0n) integer = abs / d;
    }
    if (integer === undefined || integer < 1024n) format = 'DecimalSI';
    else if (negative) integer = -integer;
  }
  if (format === 'BinarySI' && integer !== undefined) {
    const [amount, times] = removeFactors(integer, 1024n);
    const suffix = Object.keys(BINARY_SUFFIXES).find((s) => BINARY_SUFFIXES[s] === times * 10) ?? '';
    return `${amount}${suffix}`;
  }
  let [amount, exponent] = [q.mantissa, q.exponent];
  const [stripped, times] = removeFactors(amount, 10n);
  amount = stripped;
  exponent += times;
  while (exponent % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  if (format === 'DecimalExponent') return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
  // A decimal exponent without an SI suffix (beyond E = 10^18) gets no suffix at all, as in Go.
  const suffix = Object.keys(DECIMAL_SUFFIXES).find((s) => DECIMAL_SUFFIXES[s] === exponent) ?? '';
  return `${amount}${suffix}`;
}

/**
 * The string the apiserver writes for a quantity given as a JSON string or number, e.g.
 * `"0.5"` → `"500m"`, `"1.5Gi"` → `"1536Mi"`, `"2048Ki"` → `"2Mi"`, `1` → `"1"`. Leading and
 * trailing white space is ignored (as `Quantity.UnmarshalJSON` does). Throws `invalid-object`
 * for a string that is not a quantity.
 */
export function canonicalQuantity(input: string | number): string {
  const str = (typeof input === 'number' ? goNumberString(input) : input).trim();
  const q = parseQuantity(str);
  return q.cached ?? canonicalQuantityString(q);
}

/** How Go's encoder writes a float64 (also how a JSON number reaches `Quantity.UnmarshalJSON`). */
function goNumberString(n: number): string {
  if (!Number.isFinite(n)) throw invalid(String(n), 'not a finite number');
  // JavaScript and Go agree: shortest round-trip digits, exponent form below 1e-6 and from 1e21.
  return Object.is(n, -0) ? '-0' : String(n);
}
