import { CM } from './fault-churn.js';
import { ROLES, startFaultHarness, sleep, type FaultHarness } from './fault-harness.js';
import { PERMANENT, TRANSIENT, heal, installPoison, notDeadLettered, poison } from './poison-observations.js';

// A batch in which one observation cannot be stored. A permanent error (a data error) must not
// take the rest of its batch down: the observation goes to a dead-letter table and ingestion goes
// on. A transient error (a serialization failure) must be retried for as long as it lasts, however
// many more tries than JOB_ATTEMPTS that takes (here 15 s, past the 5 default tries).

describe('a failed batch', () => {
  let h: FaultHarness;
  afterEach(() => h?.dispose(), 60_000);

  /** The harness with the trigger installed before the first observation is stored; `victims` seeded ConfigMaps poisoned. */
  async function poisoned(label: string, sqlstate: string): Promise<string[]> {
    h = await startFaultHarness(label, { startRoles: false });
    await installPoison(h);
    const uids = [...h.created.keys()];
    // Two objects in the middle of the list, so each shares its batch with good observations.
    const victims = [uids[Math.floor(uids.length / 3)]!, uids[Math.floor((2 * uids.length) / 3)]!];
    await poison(h, victims, sqlstate);
    for (const r of ROLES) await h.start(r);
    return victims;
  }

  it('a permanent error for one observation: it is dead-lettered, the rest of its batch and everything after it stored', async () => {
    const victims = await poisoned('failed-batch-permanent', PERMANENT);
    const churn = h.churn();
    await sleep(3_000);
    // New observations of a victim keep failing while the churn goes on around them.
    // (A victim the churn deleted meanwhile has nothing to patch.)
    for (const uid of victims) await h.writer.patch(CM, h.created.get(uid)!, { data: { a: 'after-poison' } }, 'churn-data').catch(() => undefined);
    await sleep(3_000);
    await churn.stop();
    await h.verify({ exclude: new Set(victims) });
    expect(await notDeadLettered(h, victims)).toEqual([]);
  }, 180_000);

  it('a transient error lasting 15 s: retried until it passes, nothing lost', async () => {
    await poisoned('failed-batch-transient', TRANSIENT);
    const churn = h.churn();
    await sleep(15_000);
    await heal(h);
    await sleep(3_000);
    await churn.stop();
    await h.verify();
  }, 180_000);
});
