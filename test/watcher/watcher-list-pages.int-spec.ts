import type { RequestLogLine } from '../../libs/sandbox/src/http-handler.js';
import { CM, configMap, createWatcherHarness, expectStoredExactly, type WatcherHarness } from './watcher-harness.js';

// The initial list of large objects through the real sandbox: pages sized by bytes (WATCH_PAGE_BYTES)
// ask for another `limit` from one page to the next on the same continue token; every object is
// stored once, and no page holds more objects than the byte bound fits.

describe('watcher list pages bounded in bytes', () => {
  let h: WatcherHarness;
  const lists: URL[] = [];
  beforeAll(async () => {
    h = await createWatcherHarness('watcher-list-pages', {
      log: (line: RequestLogLine) => {
        const url = new URL(line.url, 'http://sandbox');
        if (line.method === 'GET' && url.pathname === '/api/v1/configmaps' && !url.searchParams.has('watch')) lists.push(url);
      },
    });
  });
  afterAll(async () => {
    await h?.dispose();
  });

  it('lists by pages sized from the largest object seen (100 KB: two a page), each object stored once', async () => {
    const expected = new Map<string, string[]>();
    // Names sort the large ones first: the list's order is by namespace and name.
    for (let i = 0; i < 6; i++) {
      const o = await h.writer.create(CM, configMap(`a-large-${i}`, { v: String(i).repeat(100_000) }));
      expected.set(o.uid, [o.resourceVersion]);
    }
    for (let i = 0; i < 30; i++) {
      const o = await h.writer.create(CM, configMap(`b-small-${String(i).padStart(2, '0')}`, { v: String(i) }));
      expected.set(o.uid, [o.resourceVersion]);
    }
    const app = await h.start(['worker', 'watcher'], {
      RESOURCES_INCLUDE: 'configmaps',
      WATCH_PAGE_SIZE: '20',
      WATCH_PAGE_BYTES: String(256 * 1024),
      WATCH_BATCH_BYTES: String(64 * 1024),
    });
    await h.ready(app);
    await expectStoredExactly(h, expected);

    const limits = lists.filter((u) => u.searchParams.has('limit') && !u.searchParams.has('resourceVersionMatch')).map((u) => Number(u.searchParams.get('limit')));
    // First page: 256 KiB at 1.5 MiB an object is one; then ~2 of ~100 KB; once the largest seen is
    // known the bound stays (the largest size per object so far), so the small ones also come 2 a page.
    expect(limits[0]).toBe(1);
    expect(limits.slice(1).every((l) => l === 2)).toBe(true);
    expect(limits.length).toBeGreaterThanOrEqual(18);
    await app.close();
  });
});
