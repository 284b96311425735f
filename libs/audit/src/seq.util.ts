import { AuditError } from './audit.error.js';
import type { EventFacts, Seq } from './observed-event.types.js';

const DIGITS = /^(0|[1-9][0-9]*)$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A sequence number as a canonical decimal string; throws `invalid-event` (or the given code) otherwise. */
export function seqString(seq: Seq, parameter = 'seq', code: 'invalid-event' | 'invalid-at' = 'invalid-event'): string {
  if (typeof seq === 'bigint') {
    if (seq < 0n) throw new AuditError(code, `${parameter} must not be negative`, parameter);
    return seq.toString();
  }
  if (typeof seq === 'number') {
    if (!Number.isSafeInteger(seq) || seq < 0) throw new AuditError(code, `${parameter} must be a non-negative safe integer`, parameter);
    return String(seq);
  }
  if (typeof seq === 'string' && DIGITS.test(seq)) return seq;
  throw new AuditError(code, `${parameter} must be a non-negative integer (decimal string, number or bigint)`, parameter);
}

/** Orders two canonical decimal sequence strings numerically. */
export function compareSeq(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True for an RFC 3339 date-time (`2026-11-21T10:42:00Z`, fractional seconds and offsets allowed). */
export function isRfc3339(s: unknown): s is string {
  return typeof s === 'string' && RFC3339.test(s) && !Number.isNaN(Date.parse(s));
}

/** An `at=` value, parsed: a sequence number or an instant in milliseconds. */
export type AsOf = { readonly kind: 'seq'; readonly seq: string } | { readonly kind: 'time'; readonly time: string; readonly ms: number };

/**
 * Parses `at=`: a sequence number (digits, number or bigint) or an RFC 3339 time. Throws
 * `AuditError('invalid-at')` naming the parameter `at` otherwise.
 */
export function parseAt(at: string | number | bigint): AsOf {
  if (typeof at === 'string' && !DIGITS.test(at)) {
    if (!isRfc3339(at)) throw new AuditError('invalid-at', 'at must be an RFC 3339 time (2026-01-01T10:00:00Z) or an event sequence number', 'at');
    return { kind: 'time', time: at, ms: Date.parse(at) };
  }
  return { kind: 'seq', seq: seqString(at, 'at', 'invalid-at') };
}

/** The events in sequence order (a stable sort; the input is not modified). */
export function sortEvents<E extends Pick<EventFacts, 'seq'>>(events: readonly E[]): E[] {
  const keyed = events.map((e, i) => ({ e, i, s: seqString(e.seq) }));
  keyed.sort((x, y) => compareSeq(x.s, y.s) || x.i - y.i);
  return keyed.map((k) => k.e);
}

/**
 * The events visible "as of" `at` (inclusive), in sequence order: every event with `seq ≤ at` for
 * a sequence, every event with `observedAt ≤ at` for a time. `at` undefined keeps them all.
 */
export function eventsUpTo<E extends Pick<EventFacts, 'seq' | 'observedAt'>>(events: readonly E[], at?: string | number | bigint | AsOf): E[] {
  const sorted = sortEvents(events);
  if (at === undefined) return sorted;
  const a = typeof at === 'object' ? at : parseAt(at);
  if (a.kind === 'seq') return sorted.filter((e) => compareSeq(seqString(e.seq), a.seq) <= 0);
  return sorted.filter((e) => Date.parse(e.observedAt) <= a.ms);
}
