import { humanDuration, tableVersion } from './table.js';

describe('tables', () => {
  it.each([
    [0, '0s'],
    [119_000, '119s'],
    [125_000, '2m5s'],
    [600_000, '10m'],
    [3 * 3600_000 + 5 * 60_000, '3h5m'],
    [30 * 3600_000, '30h'],
    [3 * 86400_000 + 3600_000, '3d1h'],
    [400 * 86400_000, '400d'],
    [-5000, '<invalid>'],
  ])('ages %d ms as %s', (ms, want) => {
    expect(humanDuration(ms)).toBe(want);
  });

  it('reads the Table version from Accept, preferring what comes first', () => {
    expect(tableVersion('application/json;as=Table;v=v1;g=meta.k8s.io,application/json')).toBe('meta.k8s.io/v1');
    expect(tableVersion('application/json;as=Table;v=v1beta1;g=meta.k8s.io')).toBe('meta.k8s.io/v1beta1');
    expect(tableVersion('application/json,application/json;as=Table;v=v1;g=meta.k8s.io')).toBeUndefined();
    expect(tableVersion(undefined)).toBeUndefined();
  });
});
