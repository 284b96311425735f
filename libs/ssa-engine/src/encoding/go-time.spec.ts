import { SsaEngineError } from '../errors.js';
import { formatGoMicroTime, formatGoTime, isZeroGoTime, parseGoTime } from './go-time.js';

describe('metav1.Time / MicroTime', () => {
  it.each([
    ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000000Z'],
    ['2024-01-01T01:00:00+01:00', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000000Z'],
    ['2023-12-31T23:30:00-00:45', '2024-01-01T00:15:00Z', '2024-01-01T00:15:00.000000Z'],
    ['2024-01-01T00:00:00.123456789Z', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.123456Z'],
    ['2024-01-01T00:00:00.1Z', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.100000Z'],
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000000Z'],
    ['0099-06-01T00:00:00Z', '0099-06-01T00:00:00Z', '0099-06-01T00:00:00.000000Z'],
  ])('%s → %s / %s', (input, time, micro) => {
    const t = parseGoTime(input);
    expect(formatGoTime(t)).toBe(time);
    expect(formatGoMicroTime(t)).toBe(micro);
  });

  it('the zero time (at any offset) is written as null', () => {
    for (const s of ['0001-01-01T00:00:00Z', '0001-01-01T01:00:00+01:00', '0001-01-01T00:00:00.000Z']) {
      const t = parseGoTime(s);
      expect(isZeroGoTime(t)).toBe(true);
      expect(formatGoTime(t)).toBeNull();
      expect(formatGoMicroTime(t)).toBeNull();
    }
    expect(isZeroGoTime(parseGoTime('0001-01-01T00:00:00.5Z'))).toBe(false);
  });

  it.each([
    '',
    '2024-01-01',
    '2024-01-01 00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T00:00:00',
    '2024-01-01T00:00:00+0100',
    '2024-01-01T00:00:00+24:00',
  ])('rejects %j', (input) => {
    expect(() => parseGoTime(input)).toThrow(expect.objectContaining({ code: 'invalid-object' }) as SsaEngineError);
  });
});
