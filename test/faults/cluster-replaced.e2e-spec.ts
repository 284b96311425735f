import { CM, seedConfigMaps } from './fault-churn.js';
import { startFaultHarness, sleep, type FaultHarness } from './fault-harness.js';

// The cluster behind the kubeconfig's URL is replaced by another (a rebuilt cluster, a restore):
// every object gone, resourceVersions restart lower, a new kube-system uid (the sandbox's replace()).
// The API must show every old object as deleted and the new cluster's objects as they are.

describe('the cluster replaced behind the same URL', () => {
  let h: FaultHarness;
  afterEach(() => h?.dispose(), 60_000);

  it('mid-churn: old objects deleted in the API, the new cluster objects correct', async () => {
    h = await startFaultHarness('cluster-replaced');
    const churn = h.churn();
    await h.waitForEvents(h.names.length, 60_000);
    await sleep(2_000);
    const before = (await h.writer.get('/api/v1/namespaces/kube-system')) as { metadata: { uid: string } };
    const lastRv = Number(((await h.writer.get(CM)) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    await h.sandbox.replace();
    // The old incarnation's connections are closed, as a restarted apiserver's are: let the
    // writer's pooled keep-alive sockets notice before writing to the new one.
    await sleep(500);
    h.names.splice(0, h.names.length);
    h.names.push(...(await seedConfigMaps(h.writer, h.created, Math.floor(h.created.size / 2), 'new')));
    const after = (await h.writer.get('/api/v1/namespaces/kube-system')) as { metadata: { uid: string } };
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(Number(((await h.writer.get(CM)) as { metadata: { resourceVersion: string } }).metadata.resourceVersion)).toBeLessThan(lastRv);
    await sleep(4_000);
    await churn.stop();
    await h.verify({ deadlineMs: 90_000 });
  }, 240_000);
});
