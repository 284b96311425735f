import { formatLocalTime } from './local-time.js';

// The unit project runs with TZ=UTC.
describe('formatLocalTime', () => {
  it('prints the local time with its offset', () => {
    expect(formatLocalTime('2026-11-21T10:42:07.123Z')).toBe('2026-11-21 10:42:07 +00:00');
  });
  it('leaves what is not a time as it is', () => {
    expect(formatLocalTime('not a time')).toBe('not a time');
  });
});
