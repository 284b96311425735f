import { startFaultHarness, sleep, type FaultHarness, type Role } from './fault-harness.js';

// SIGKILL of each role (its own process), once while the watcher's initial list is being ingested
// and once in the middle of a churn; restarted a second later. Nothing may be lost or stored twice.

describe.each<Role>(['worker', 'watcher', 'api'])('SIGKILL of the %s', (role) => {
  let h: FaultHarness;
  afterEach(() => h?.dispose(), 60_000);

  it(`mid-list and mid-churn: every object correct again after a restart of the ${role}`, async () => {
    h = await startFaultHarness(`sigkill-${role}`);
    const churn = h.churn();
    // Mid-list: part of the initial list is stored, not all of it.
    await h.waitForEvents(Math.floor(h.names.length / 4), 60_000);
    console.log(`[faults] SIGKILL of the ${role} mid-list at ${await h.events()} events (${h.names.length} objects listed)`);
    await h.kill(role);
    await sleep(1_000);
    await h.start(role);
    // Mid-churn.
    await sleep(4_000);
    await h.kill(role);
    await sleep(1_000);
    await h.start(role);
    await sleep(3_000);
    await churn.stop();
    await h.verify();
  }, 180_000);
});
