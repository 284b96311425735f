import { storableStandIn, storableText } from './storable-text.js';

describe('storableText: what a Postgres text column can hold', () => {
  it.each([
    ['', true],
    ['kubectl-client-side-apply', true],
    ['a\uFFFDb', true],
    ['emoji \uD83D\uDE00 (a surrogate pair)', true],
    ['a\u0000b', false],
    ['lone high \uD800', false],
    ['\uDC00 lone low', false],
    ['reversed pair \uDE00\uD83D', false],
  ])('%j → %s', (s, storable) => {
    expect(storableText(s)).toBe(storable);
  });

  it('takes null (a transition without a manager) as storable', () => {
    expect(storableText(null)).toBe(true);
  });

  it('gives each character text cannot hold U+FFFD in its stand-in, and keeps surrogate pairs', () => {
    expect(storableStandIn('a\u0000b\uD800c\uD83D\uDE00\uDC00')).toBe('a\uFFFDb\uFFFDc\uD83D\uDE00\uFFFD');
    expect(storableStandIn(null)).toBeNull();
    // Twice in a row: the pattern keeps no state between calls.
    expect(storableText('\uD800')).toBe(false);
    expect(storableText('\uD800')).toBe(false);
  });
});
