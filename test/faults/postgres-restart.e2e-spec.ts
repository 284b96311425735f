import { startFaultHarness, sleep, type FaultHarness } from './fault-harness.js';

// The case's own Postgres stopped like a crash (`pg_ctl stop -m immediate`) and started again on
// the same port while the service ingests: a short restart, and a 20 s outage (a failover). What
// the worker was writing must be retried until Postgres is back, however long that takes.

describe('Postgres restarted', () => {
  let h: FaultHarness;
  afterEach(() => h?.dispose(), 60_000);

  it('down 3 s, mid-list and mid-churn: every object correct again', async () => {
    h = await startFaultHarness('postgres-restart');
    const churn = h.churn();
    await h.waitForEvents(Math.floor(h.names.length / 4), 60_000);
    await h.postgres.restart({ downMs: 3_000 });
    await sleep(4_000);
    await h.postgres.restart({ downMs: 3_000 });
    await sleep(4_000);
    await churn.stop();
    await h.verify();
  }, 180_000);

  it('down 20 s (a failover) mid-churn: every object correct again', async () => {
    h = await startFaultHarness('postgres-failover');
    const churn = h.churn();
    await h.waitForEvents(h.names.length, 60_000);
    await sleep(2_000);
    await h.postgres.restart({ downMs: 20_000 });
    await sleep(4_000);
    await churn.stop();
    await h.verify({ deadlineMs: 90_000 });
  }, 240_000);
});
