import { startFaultHarness, sleep, type FaultHarness } from './fault-harness.js';

// The case's own Redis (no persistence) killed and started again EMPTY while the service ingests:
// queued jobs and the watcher's saved positions are gone. The service must notice and fill the
// hole (e.g. a relist diffed against the store), not carry on as if nothing happened.

describe('Redis restarted empty', () => {
  let h: FaultHarness;
  afterEach(() => h?.dispose(), 60_000);

  it('mid-list and mid-churn: every object correct again', async () => {
    h = await startFaultHarness('redis-restart');
    const churn = h.churn();
    await h.waitForEvents(Math.floor(h.names.length / 4), 60_000);
    await h.redis.restart();
    await sleep(5_000);
    await h.redis.restart({ downMs: 1_000 });
    await sleep(4_000);
    await churn.stop();
    await h.verify();
  }, 180_000);
});
