import { startFaultHarness, sleep, type FaultHarness } from './fault-harness.js';

// Every connection of the service (to Postgres, to Redis, to the cluster) goes through a TCP proxy
// that cuts all of them, again and again, while the list is ingested and during a churn.

describe('connections cut by a proxy', () => {
  let h: FaultHarness;
  afterEach(() => h?.dispose(), 60_000);

  it('Postgres, Redis and the cluster cut every 700 ms for 10 s, mid-list and mid-churn: every object correct again', async () => {
    h = await startFaultHarness('connection-cuts', { proxies: true });
    const { postgres, redis, kube } = h.proxies!;
    const churn = h.churn();
    await h.waitForEvents(Math.floor(h.names.length / 4), 60_000);
    let cut = 0;
    for (let i = 0; i < 14; i++) {
      cut += postgres.cut() + redis.cut() + kube.cut();
      await sleep(700);
    }
    console.log(`[faults] ${cut} connections cut`);
    expect(cut).toBeGreaterThan(14);
    await sleep(3_000);
    await churn.stop();
    await h.verify();
  }, 180_000);
});
