import { decideClusterHealth, stillFailing } from './cluster-health.js';

describe('decideClusterHealth', () => {
  const at = (s: number) => s * 1000;
  const fail = (resource: string, since: number, error = 'connect ECONNREFUSED') => ({ resource, since: at(since), error });

  it.each([
    ['standby without the lease', { leading: false, synced: true, failures: [fail('pods', 0)] }, { status: 'standby' }],
    ['starting before every resource is listed', { leading: true, synced: false, failures: [] }, { status: 'starting' }],
    ['watching once listed', { leading: true, synced: true, failures: [] }, { status: 'watching' }],
    ['a failure inside the grace is a reconnection', { leading: true, synced: true, failures: [fail('pods', 97)] }, { status: 'watching' }],
    [
      'behind past the grace, since the oldest failure, naming the resources',
      { leading: true, synced: true, failures: [fail('pods', 90, 'old'), fail('configmaps', 80, 'older'), fail('secrets', 99)] },
      { status: 'behind', since: new Date(at(80)).toISOString(), error: 'old', resources: ['configmaps', 'pods'] },
    ],
    ['behind before the first list too (discovery failing)', { leading: true, synced: false, failures: [fail('discovery', 0)] }, { status: 'behind', resources: ['discovery'] }],
  ])('%s', (_name, state, expected) => {
    expect(decideClusterHealth('west', state, at(100), 5_000)).toMatchObject({ cluster: 'west', ...expected });
  });
});

describe('stillFailing', () => {
  it('keeps the first failure as the start and the latest error', () => {
    const first = stillFailing(undefined, new Error('connection refused'), 1_000);
    expect(first).toEqual({ since: 1_000, error: 'connection refused' });
    expect(stillFailing(first, 'timed out', 9_000)).toEqual({ since: 1_000, error: 'timed out' });
  });
});
