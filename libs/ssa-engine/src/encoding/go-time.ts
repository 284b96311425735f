/**
 * `metav1.Time` and `metav1.MicroTime` as the apiserver reads and writes them: parsed as RFC 3339
 * (any offset, optional fraction), written in UTC — `Time` with whole seconds, `MicroTime` with
 * exactly six fractional digits — and `null` for the zero time (0001-01-01T00:00:00Z).
 */
import { SsaEngineError } from '../errors.js';

/** A parsed instant: whole seconds since the Unix epoch plus the fraction's digits. */
export interface GoTime {
  readonly unixSeconds: number;
  /** Fractional second digits as written (may be empty); never affected by the offset. */
  readonly fraction: string;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/;
/** Unix seconds of Go's zero time, 0001-01-01T00:00:00Z. */
const ZERO_UNIX_SECONDS = -62135596800;

function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/** Parses an RFC 3339 time as Go's `time.Parse(time.RFC3339, s)` accepts it; throws `invalid-object`. */
export function parseGoTime(s: string): GoTime {
  const m = RFC3339.exec(s);
  const bad = (): SsaEngineError =>
    new SsaEngineError('invalid-object', `cannot parse ${JSON.stringify(s)} as an RFC 3339 time`);
  if (!m) throw bad();
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    throw bad();
  }
  let offsetSeconds = 0;
  if (m[8] !== 'Z') {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) throw bad();
    offsetSeconds = (m[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return { unixSeconds: d.getTime() / 1000 - offsetSeconds, fraction: m[7] ?? '' };
}

/** Whether `t` is Go's zero time (`time.Time.IsZero`). */
export function isZeroGoTime(t: GoTime): boolean {
  return t.unixSeconds === ZERO_UNIX_SECONDS && !/[1-9]/.test(t.fraction);
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function formatUtcSeconds(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}` +
    `T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`
  );
}

/** `metav1.Time.MarshalJSON`: RFC 3339 in UTC, whole seconds; `null` for the zero time. */
export function formatGoTime(t: GoTime): string | null {
  if (isZeroGoTime(t)) return null;
  return `${formatUtcSeconds(t.unixSeconds)}Z`;
}

/** `metav1.MicroTime.MarshalJSON`: RFC 3339 in UTC with six fractional digits; `null` when zero. */
export function formatGoMicroTime(t: GoTime): string | null {
  if (isZeroGoTime(t)) return null;
  return `${formatUtcSeconds(t.unixSeconds)}.${t.fraction.slice(0, 6).padEnd(6, '0')}Z`;
}
