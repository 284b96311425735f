import { CM } from './fault-churn.js';
import { startFaultHarness, sleep, type FaultHarness } from './fault-harness.js';
import { verifyAgainstSandbox } from './fault-verify.js';

// The harness itself: with no fault the service converges (the reference time), and the
// verification sees a change or a deletion the service missed.

describe('fault harness', () => {
  let h: FaultHarness;
  beforeAll(async () => {
    h = await startFaultHarness('baseline');
  }, 120_000);
  afterAll(() => h?.dispose(), 60_000);

  it('no fault: every object as the sandbox has it, once listed and after a churn', async () => {
    const churn = h.churn();
    await sleep(6_000);
    await churn.stop();
    await h.verify();
  }, 120_000);

  it('the verification is not blind: a write and a deletion the service never saw are reported', async () => {
    await h.kill('watcher');
    const [changed, deleted] = [h.names[0]!, h.names[1]!];
    // Written by the manager that owns .data.a already: managedFields keep their owners, only the value differs.
    const live = (await h.writer.get(`${CM}/${changed}`)) as { metadata: { managedFields: { manager: string; fieldsV1: { 'f:data'?: Record<string, unknown> } }[] } };
    const owner = live.metadata.managedFields.find((e) => e.fieldsV1['f:data']?.['f:a'] !== undefined)!.manager;
    await h.writer.patch(CM, changed, { data: { a: 'unseen' } }, owner);
    await h.writer.delete(CM, deleted);
    const r = await verifyAgainstSandbox(h.sandbox.url, h.api, h.created, { since: Date.now(), deadlineMs: 3_000 });
    expect(r.correct).toBe(false);
    // Exactly these two, in any order (the mismatch lines start with random uids).
    expect(r.mismatches).toHaveLength(2);
    expect(r.mismatches).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(` ${changed}: .data is .* in the API, .*"a":"unseen"`)),
        expect.stringMatching(new RegExp(` ${deleted}: deleted in the sandbox, live in the API`)),
      ]),
    );
    await h.start('watcher');
    await h.verify({ since: Date.now() });
  }, 120_000);
});
