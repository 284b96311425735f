import type { DataSource } from 'typeorm';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, scaledBy, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import { EventReader } from '../events/event-reader.js';
import { PartitionMaintenance } from '../maintenance/partition-maintenance.js';
import { foldingAppender, projectorOn } from '../testing/worker-use-cases.js';

const capture = () => loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture;

describe('rewrites of objects from their events: the pages across objects, retention (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('rewrite_objects');
    ds = await createDataSource(db.url, 6).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('reads every event of the objects exactly once, object by object in id order, whatever the page bounds', async () => {
    const appender = foldingAppender(ds, capture());
    const objects = Array.from({ length: 7 }, (_, i) => deploymentObservation({ cluster: 'pages', uid: `p${i}`, resourceVersion: '1', type: 'ADDED' }));
    await appender.append(objects);
    // Histories of different lengths: some objects stop changing early.
    for (let rv = 2; rv <= 9; rv++) await appender.append(objects.filter((_, i) => i + 2 > rv || i % 2 === 0).map((o) => scaledBy(o, 'hpa', rv, String(rv))));
    const ids: string[] = (await ds.query(`SELECT o.id::text AS id FROM objects o JOIN clusters c ON c.id = o.cluster_id WHERE c.name = 'pages' ORDER BY o.id`)).map((r: { id: string }) => r.id);
    const all: string[] = (await ds.query(`SELECT e.object_id::text || ':' || e.seq::text AS k FROM events e WHERE e.object_id = ANY ($1::bigint[]) ORDER BY e.object_id, e.seq`, [ids]))
      .map((r: { k: string }) => r.k);
    const [{ bytes }]: { bytes: number }[] = await ds.query(`SELECT max(octet_length(b.bytes))::integer AS bytes FROM blobs b`);
    const reader = new EventReader(ds);
    for (const limit of [1, 2, 3, 5, 7, 13, 1000]) {
      for (const maxBytes of [1, bytes, bytes * 2 + 1, bytes * 5, 2 ** 30]) {
        const seen: string[] = [];
        for (let after: { objectId: string; seq: string } | null = null; ; ) {
          // The ids in any order: the pages go by id.
          const page = await reader.objectsHistoryPage([...ids].reverse(), after, limit, maxBytes);
          seen.push(...page.events.map((e) => `${e.objectId}:${e.seq}`));
          if (page.events.length === 0 || page.last) break;
          const last = page.events[page.events.length - 1]!;
          after = { objectId: last.objectId, seq: last.seq };
        }
        expect({ limit, maxBytes, seen }).toEqual({ limit, maxBytes, seen: all });
      }
    }
  });

  it('keeps the rows of an object whose every event retention dropped (nothing rebuilds them) and rebuilds the others', async () => {
    await new PartitionMaintenance(ds).run(new Date('2025-01-15T00:00:00Z'), 0, 0);
    const appender = foldingAppender(ds, capture());
    const old = deploymentObservation({ cluster: 'retained', uid: 'old', resourceVersion: '1', type: 'ADDED', observedAt: '2025-01-10T00:00:00Z' });
    const recent = deploymentObservation({ cluster: 'retained', uid: 'new', resourceVersion: '1', type: 'ADDED' });
    await appender.append([old]);
    await appender.append([recent, scaledBy(recent, 'hpa', 4, '2')]);
    expect((await new PartitionMaintenance(ds).run(new Date(), 2, 90)).dropped).toContain('events_y2025m01');
    const states = async (): Promise<{ uid: string; last_seq: string }[]> =>
      ds.query(`SELECT uid, last_seq::text AS last_seq FROM ownership_states WHERE cluster = 'retained' ORDER BY uid`);
    const before = await states();
    expect(before.map((s) => s.uid)).toEqual(['new', 'old']);
    expect(await projectorOn(ds).replay({ kind: 'cluster', cluster: 'retained' })).toMatchObject({ objects: 2, events: 2 });
    expect(await states()).toEqual(before);
  });
});
