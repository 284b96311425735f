import { startFaultHarness, sleep, type FaultHarness, type Role } from './fault-harness.js';

// SIGTERM of each role while it works (the worker mid-list, the others mid-churn), as Kubernetes
// stops a pod: each must exit by itself, with code 0, well inside the default 30 s grace period;
// restarted, nothing may be lost or stored twice.

const GRACE_MS = 30_000;

describe('graceful stop of each role', () => {
  let h: FaultHarness;
  afterEach(() => h?.dispose(), 60_000);

  it('SIGTERM mid-list and mid-churn: every role exits 0 within the grace period; nothing lost after the restart', async () => {
    h = await startFaultHarness('graceful-stop');
    const churn = h.churn();
    const stops: string[] = [];
    const stopAndRestart = async (role: Role) => {
      const { code, ms } = await h.terminate(role);
      stops.push(`${role} ${ms} ms (exit ${code})`);
      expect(code).toBe(0);
      expect(ms).toBeLessThan(GRACE_MS - 5_000);
      await sleep(500);
      await h.start(role);
    };
    await h.waitForEvents(Math.floor(h.names.length / 4), 60_000);
    await stopAndRestart('worker');
    await sleep(3_000);
    await stopAndRestart('watcher');
    await sleep(2_000);
    await stopAndRestart('api');
    await sleep(2_000);
    await churn.stop();
    console.log(`[faults] graceful stops: ${stops.join(', ')}`);
    await h.verify();
  }, 180_000);
});
