import { AuditError } from './audit.error.js';
import type { ObservedEvent } from './observed-event.types.js';
import { testEvent } from './testing/conformance-events.js';
import { compareSeq, eventsUpTo, parseAt, seqString, sortEvents } from './seq.util.js';

const ev = (seq: ObservedEvent['seq'], observedAt: string): ObservedEvent => testEvent({ seq, observedAt, watchType: 'MODIFIED' });

describe('sequences and at=', () => {
  it('normalises sequences to decimal strings and compares them numerically beyond 2^53', () => {
    expect(seqString(12n)).toBe('12');
    expect(seqString(12)).toBe('12');
    expect(seqString('9007199254740993')).toBe('9007199254740993');
    expect(compareSeq('9', '10')).toBeLessThan(0);
    expect(compareSeq('9007199254740993', '9007199254740992')).toBeGreaterThan(0);
    for (const bad of ['01', '-1', '1e3', '', 1.5, -1, Number.MAX_SAFE_INTEGER + 2]) expect(() => seqString(bad as never)).toThrow(AuditError);
  });

  it('parses at= as a sequence or an RFC 3339 time, else invalid-at', () => {
    expect(parseAt('42')).toEqual({ kind: 'seq', seq: '42' });
    expect(parseAt(42n)).toEqual({ kind: 'seq', seq: '42' });
    expect(parseAt('2026-11-21T10:42:00Z')).toMatchObject({ kind: 'time', ms: Date.parse('2026-11-21T10:42:00Z') });
    expect(parseAt('2026-11-21T11:42:00.5+01:00')).toMatchObject({ kind: 'time', ms: Date.parse('2026-11-21T10:42:00.5Z') });
    for (const bad of ['yesterday', '2026-11-21', '2026-13-45T99:00:00Z', '-3']) {
      try {
        parseAt(bad);
        throw new Error('accepted ' + bad);
      } catch (e) {
        expect(e).toMatchObject({ code: 'invalid-at', parameter: 'at' });
      }
    }
  });

  it('eventsUpTo keeps the events at or before a sequence or a time, sorted by sequence', () => {
    const es = [ev('30', '2026-01-01T00:00:03Z'), ev('10', '2026-01-01T00:00:01Z'), ev('20', '2026-01-01T00:00:02Z')];
    expect(sortEvents(es).map((e) => e.seq)).toEqual(['10', '20', '30']);
    expect(eventsUpTo(es).map((e) => e.seq)).toEqual(['10', '20', '30']);
    expect(eventsUpTo(es, 20).map((e) => e.seq)).toEqual(['10', '20']);
    expect(eventsUpTo(es, '2026-01-01T00:00:02.5Z').map((e) => e.seq)).toEqual(['10', '20']);
    expect(eventsUpTo(es, '5')).toEqual([]);
  });
});
