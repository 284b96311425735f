import type { DataSource, QueryRunner } from 'typeorm';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, type TestDatabase } from '../../../testing/src/index.js';
import { SnapshotPatches1795700000000 } from '../../../../migrations/1795700000000-SnapshotPatches.js';
import { createDataSource } from '../database/database.js';
import { storedBody } from '../ingest/body.util.js';
import { diffJson } from '../ingest/json-diff.util.js';
import { blobOf } from '../ingest/managed-fields.util.js';
import { EventAppender } from './event-appender.js';
import { EventReader } from './event-reader.js';
import { ObservedEventLoader } from './observed-event.loader.js';
import { runMigrationStep } from '../testing/migration-step.js';

// Objects stored before snapshot patches (bodies as patches on the previous body, the tip body on
// the object row) go on after the migration: old chains read as before, new patches go against the
// object's last whole body.
describe('migration to snapshot patches (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const capture = { ...loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture, bodySnapshotEvery: 20 };
  const observations = [1, 2, 3, 4, 5, 6].map((i) =>
    deploymentObservation({ uid: 'legacy-1', resourceVersion: String(10 + i), replicas: i, image: i === 5 ? 'web:canary' : 'web:1' }),
  );
  const migration = new SnapshotPatches1795700000000();
  const migrate = (step: (q: QueryRunner) => Promise<void>) => runMigrationStep(ds, step);

  beforeAll(async () => {
    db = await createTestDatabase('snapshot_patches');
    ds = await createDataSource(db.url, 2).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('reads the chains stored before and patches new bodies against the last whole one', async () => {
    const appender = new EventAppender(ds, capture, null);
    const reader = new EventReader(ds);
    await appender.append(observations.slice(0, 3));
    await expect(migrate((q) => migration.down(q))).rejects.toThrow(/2 events store their bodies as patches against a snapshot/);

    // Rewrite the stored patches as the appender wrote them before: each against the previous body.
    const stored = await reader.history('test-cluster', 'legacy-1');
    const bodies = await Promise.all(stored.map((e) => reader.bodyAt(e.seq)));
    for (let i = 1; i < stored.length; i++) {
      const blob = blobOf(JSON.stringify(diffJson(bodies[i - 1], bodies[i])));
      await ds.query(`INSERT INTO blobs (hash, bytes) VALUES ($1, convert_to($2, 'UTF8')) ON CONFLICT DO NOTHING`, [blob.hash, blob.json]);
      await ds.query(`UPDATE events SET body_hash = $1, body_encoding = 'json-patch' WHERE seq = $2`, [blob.hash, stored[i]!.seq]);
    }
    await migrate((q) => migration.down(q));
    await ds.query(`UPDATE objects SET tip_body = convert_to($1, 'UTF8') WHERE uid = 'legacy-1'`, [JSON.stringify(bodies.at(-1))]);
    await migrate((q) => migration.up(q));

    const [row] = await ds.query(`SELECT snapshot_hash FROM objects WHERE uid = 'legacy-1'`);
    expect(Buffer.from(row.snapshot_hash).equals(blobOf(JSON.stringify(bodies[0])).hash)).toBe(true);

    await new EventAppender(ds, capture, null).append(observations.slice(3));
    const history = await reader.history('test-cluster', 'legacy-1');
    expect(history.map((e) => e.bodyEncoding)).toEqual(['full', 'json-patch', 'json-patch', 'snapshot-patch', 'snapshot-patch', 'snapshot-patch']);
    const expected = observations.map((o) => JSON.parse(JSON.stringify(storedBody(o.object))));
    for (const [i, e] of history.entries()) expect(await reader.bodyAt(e.seq)).toEqual(expected[i]);
    const loaded = await new ObservedEventLoader(ds).load(history);
    loaded.forEach((e, i) => expect((e.object as { spec: unknown }).spec).toEqual(observations[i]!.object.spec));
    // Alone, the last event's body needs the old chain's whole body and patches, not the snapshot patches between.
    const [lastAlone] = await new ObservedEventLoader(ds).load(history.slice(5));
    expect((lastAlone!.object as { spec: unknown }).spec).toEqual(observations[5]!.object.spec);
    // The sixth body is patched against the first: its image is the first's again, so only replicas differ.
    const [last] = await ds.query(`SELECT convert_from(b.bytes, 'UTF8') AS json FROM events e JOIN blobs b ON b.hash = e.body_hash WHERE e.seq = $1`, [history[5]!.seq]);
    expect(JSON.parse(last.json)).toEqual([{ op: 'replace', path: '/spec/replicas', value: 6 }]);
  });
});
