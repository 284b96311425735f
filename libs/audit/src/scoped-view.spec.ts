import { scopedView } from './scoped-view.js';

const scope = (namespace: string) => ({ cluster: 'c', group: 'apps', resource: 'deployments', namespace });

describe('scopedView', () => {
  const tracked = [scope('a'), scope('b'), scope('c')];

  it('counts from the totals less the hidden scopes where the caller sees more scopes than it does not', () => {
    expect(scopedView(tracked, [true, false, true])).toEqual({ allowed: [scope('a'), scope('c')], fromTotals: true });
    // Every scope seen: nothing to take away but scopes tracked since.
    expect(scopedView(tracked, [true, true, true])).toEqual({ allowed: tracked, fromTotals: true });
  });

  it('counts the allowed scopes\' objects where as many or more are hidden', () => {
    expect(scopedView(tracked, [false, true, false])).toEqual({ allowed: [scope('b')], fromTotals: false });
    expect(scopedView([scope('a'), scope('b')], [true, false])).toEqual({ allowed: [scope('a')], fromTotals: false });
    expect(scopedView(tracked, [false, false, false])).toEqual({ allowed: [], fromTotals: false });
    expect(scopedView([], [])).toEqual({ allowed: [], fromTotals: false });
  });

  it('refuses answers that do not match the scopes', () => {
    expect(() => scopedView(tracked, [true])).toThrow('1 answers for 3 scopes');
  });
});
