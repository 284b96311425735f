import { freePort, storedHistory, waitFor } from '../../libs/testing/src/index.js';
import { CM, configMap, createWatcherHarness, type WatcherHarness } from './watcher-harness.js';

// Every role in one process with the in-process queue (no Redis), as `npm start` runs without REDIS_URL.
// (Regression: the in-process driver used to leave every lane marked running after start-up, so no job ran.)

describe('watcher with the in-process queue', () => {
  let h: WatcherHarness;
  beforeAll(async () => {
    h = await createWatcherHarness('watcher-in-process');
  });
  afterAll(async () => {
    await h?.dispose();
  });

  it('stores what it watches', async () => {
    const app = await h.start(['api', 'worker', 'watcher'], { REDIS_URL: '', PORT: String(await freePort()) });
    await h.ready(app);
    const a = await h.writer.create(CM, configMap('in-process', { v: '0' }));
    const b = await h.writer.patch(CM, 'in-process', { data: { v: '1' } });
    await waitFor('stored', async () => (await storedHistory(h.ds, h.cluster)).get(a.uid)?.length === 2);
    expect((await storedHistory(h.ds, h.cluster)).get(a.uid)!.map((s) => s.resourceVersion)).toEqual([a.resourceVersion, b.resourceVersion]);
  });
});
