import type { DataSource } from 'typeorm';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import { EventAppender } from '../events/event-appender.js';
import { PartitionMaintenance } from './partition-maintenance.js';

describe('PartitionMaintenance (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const partitionOf = async (rv: string) =>
    (await ds.query(`SELECT tableoid::regclass::text AS p FROM events WHERE resource_version = $1`, [rv]))[0].p as string;

  beforeAll(async () => {
    db = await createTestDatabase('partitions', { partitions: false });
    ds = await createDataSource(db.url, 2).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('creates monthly partitions ahead, moving rows stranded in the default partition', async () => {
    await new EventAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture, null).append([
      deploymentObservation({ uid: 'p-1', resourceVersion: '1', observedAt: '2026-11-21T12:00:00Z' }),
      deploymentObservation({ uid: 'p-2', resourceVersion: '1', observedAt: '2027-01-02T00:00:00Z' }),
    ]);
    expect(await partitionOf('1')).toBe('events_default');
    const m = new PartitionMaintenance(ds);
    const r = await m.run(new Date('2026-11-21T12:00:00Z'), 2, 0);
    expect(r.created).toEqual(['events_y2026m11', 'events_y2026m12', 'events_y2027m01']);
    const rows: { p: string }[] = await ds.query(`SELECT tableoid::regclass::text AS p FROM events ORDER BY seq`);
    expect(rows.map((x) => x.p)).toEqual(['events_y2026m11', 'events_y2027m01']);
    expect((await m.run(new Date('2026-11-21T12:00:00Z'), 2, 0)).created).toEqual([]);
  });

  it('drops whole partitions past the retention', async () => {
    const r = await new PartitionMaintenance(ds).run(new Date('2027-03-15T00:00:00Z'), 0, 40);
    expect([...r.dropped].sort()).toEqual(['events_y2026m11', 'events_y2026m12', 'events_y2027m01']);
    expect(r.created).toEqual(['events_y2027m03']);
  });
});
