import { ServiceAccountTokens } from './service-account-tokens.js';

describe('ServiceAccountTokens', () => {
  const sa = { namespace: 'team-a', name: 'viewer', uid: 'u-1' };

  it('issues opaque tokens that live expirationSeconds, then are expired; others are unknown', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const tokens = new ServiceAccountTokens(() => now);
    const { token, issued } = tokens.issue(sa, ['https://kubernetes.default.svc.cluster.local'], 3600);
    expect(token).toMatch(/^sbx-[A-Za-z0-9_-]{43}$/);
    expect(issued.expires.toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(tokens.lookup(token)).toMatchObject({ namespace: 'team-a', serviceAccount: 'viewer', uid: 'u-1' });
    now = new Date('2026-01-01T00:59:59Z');
    expect(tokens.lookup(token)).toBe(issued);
    now = new Date('2026-01-01T01:00:00Z');
    expect(tokens.lookup(token)).toBe('expired');
    expect(tokens.lookup('sbx-unknown')).toBeUndefined();
    expect(tokens.issue(sa, [], 600).token).not.toBe(token);
  });
});
