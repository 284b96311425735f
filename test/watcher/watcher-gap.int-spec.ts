import { storedHistory, waitFor } from '../../libs/testing/src/index.js';
import { WatcherService } from '../../apps/watcher/src/watcher.service.js';
import { CM, configMap, createWatcherHarness, type WatcherHarness } from './watcher-harness.js';

// The sandbox forgets its watch history while the watcher is down: the restart resumes from its stored
// position, gets 410 Gone, relists and hands over the difference, marked as reconstructed (gap-fill).

describe('watcher: 410 Gone after a gap', () => {
  let h: WatcherHarness;
  beforeAll(async () => {
    h = await createWatcherHarness('watcher-gap');
  });
  afterAll(async () => {
    await h?.dispose();
  });

  it('relists and stores the changes it could not watch, marked gap-fill', async () => {
    const w = h.writer;
    const worker = await h.start(['worker']);
    let watcher = await h.start(['watcher']);
    await h.ready(watcher);
    const kept = await w.create(CM, configMap('kept', { v: '0' }));
    const changed = await w.create(CM, configMap('changed', { v: '0' }));
    const removed = await w.create(CM, configMap('removed', { v: '0' }));
    await waitFor('three objects stored', async () => {
      const s = await storedHistory(h.ds, h.cluster);
      return [kept, changed, removed].every((o) => s.get(o.uid)?.length === 1);
    });
    await watcher.close();

    // While nobody watches: two changes (only the last can be recovered), a delete, a create; then compaction.
    await w.patch(CM, 'changed', { data: { v: '1' } });
    const last = await w.patch(CM, 'changed', { data: { v: '2' } });
    await w.delete(CM, 'removed');
    const added = await w.create(CM, configMap('added', { v: '0' }));
    h.sandbox.compact();

    watcher = await h.start(['watcher']);
    await h.ready(watcher);
    await h.drained(worker);
    const s = await waitFor('reconstructed events', async () => {
      const s = await storedHistory(h.ds, h.cluster);
      return s.get(removed.uid)?.length === 2 && s.get(changed.uid)?.length === 2 && s.get(added.uid)?.length === 1 ? s : undefined;
    });
    expect(s.get(kept.uid)).toEqual([{ type: 'ADDED', resourceVersion: kept.resourceVersion, source: 'watch' }]);
    expect(s.get(changed.uid)![1]).toEqual({ type: 'MODIFIED', resourceVersion: last.resourceVersion, source: 'gap-fill' });
    expect(s.get(removed.uid)![1]).toMatchObject({ type: 'DELETED', source: 'gap-fill' });
    expect(s.get(added.uid)).toEqual([{ type: 'ADDED', resourceVersion: added.resourceVersion, source: 'gap-fill' }]);

    const metrics = await (await fetch(`${watcher.app.get(WatcherService).url}/metrics`)).text();
    expect(metrics).toMatch(/ssa_audit_watch_relists_total\{cluster="ssa-sandbox",resource="configmaps",reason="gone"\} 1/);

    // Watching goes on after the relist.
    const after = await w.patch(CM, 'kept', { data: { v: '9' } });
    await waitFor('watched after the relist', async () => (await storedHistory(h.ds, h.cluster)).get(kept.uid)?.[1]?.resourceVersion === after.resourceVersion);
  });
});
