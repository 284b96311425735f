import { Backoff, sleep } from './backoff.js';

describe('Backoff', () => {
  it('doubles up to the maximum, with jitter in [½, 1] of the ceiling', () => {
    const low = new Backoff(100, 1000, () => 0);
    expect([1, 2, 3, 4, 5, 6].map(() => low.next())).toEqual([50, 100, 200, 400, 500, 500]);
    const high = new Backoff(100, 1000, () => 0.999999);
    expect([1, 2, 3, 4, 5].map(() => high.next())).toEqual([100, 200, 400, 800, 1000]);
  });

  it('starts over after reset', () => {
    const b = new Backoff(10, 1000, () => 1);
    b.next();
    b.next();
    b.reset();
    expect(b.next()).toBe(10);
  });

  it('sleep ends at once when aborted', async () => {
    const c = new AbortController();
    const t = Date.now();
    const s = sleep(10_000, c.signal);
    c.abort();
    await s;
    expect(Date.now() - t).toBeLessThan(1000);
  });
});
