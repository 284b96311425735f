import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, secretObservation, waitFor, type TestDatabase } from '../../../testing/src/index.js';
import { storedBody } from '../ingest/body.util.js';
import { blobOf } from '../ingest/managed-fields.util.js';
import { createDataSource } from '../database/database.js';
import { foldingAppender } from '../testing/worker-use-cases.js';
import { EventReader } from './event-reader.js';

describe('EventAppender (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let reader: EventReader;
  const capture = { ...loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture, bodySnapshotEvery: 3 };

  beforeAll(async () => {
    db = await createTestDatabase('appender');
    ds = await createDataSource(db.url, 4).initialize();
    reader = new EventReader(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });
  /** Until an append in this database waits for a row lock. */
  const waitForBlockedAppend = () =>
    waitFor('an append waiting for a row lock', async () =>
      ((await ds.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) as { n: number }[])[0]!.n > 0);

  it('runs on connections without JIT compilation (short statements; see createDataSource)', async () => {
    expect(await ds.query(`SHOW jit`)).toEqual([{ jit: 'off' }]);
  });

  it('stores a redelivered batch once (same batch 3×)', async () => {
    const appender = foldingAppender(ds, capture);
    const batch = [1, 2, 3].map((i) => deploymentObservation({ uid: 'idem-1', resourceVersion: String(i), replicas: i }));
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await appender.append(batch));
    expect(results.map((r) => [r.stored, r.duplicate])).toEqual([[3, 0], [0, 3], [0, 3]]);
    const history = await reader.history('test-cluster', 'idem-1');
    expect(history.map((e) => e.resourceVersion)).toEqual(['1', '2', '3']);
  });

  it('counts time-only changes without storing them, but stores value and ownership changes', async () => {
    const appender = foldingAppender(ds, capture);
    const base = { uid: 'dedupe-1', replicas: 2 };
    const r = await appender.append([
      deploymentObservation({ ...base, resourceVersion: '10', time: '2026-11-21T10:00:00Z' }),
      deploymentObservation({ ...base, resourceVersion: '11', time: '2026-11-21T10:05:00Z' }), // time only
      deploymentObservation({ ...base, resourceVersion: '12', time: '2026-11-21T10:06:00Z', status: { replicas: 9 } }), // status only: untracked
      deploymentObservation({ ...base, resourceVersion: '13', time: '2026-11-21T10:07:00Z', replicas: 5 }), // a tracked value
      deploymentObservation({ ...base, resourceVersion: '14', replicas: 5, type: 'DELETED' }),
    ]);
    expect({ stored: r.stored, unchanged: r.unchanged, duplicate: r.duplicate }).toEqual({ stored: 3, unchanged: 2, duplicate: 0 });
    const history = await reader.history('test-cluster', 'dedupe-1');
    expect(history.map((e) => `${e.resourceVersion}:${e.eventType}`)).toEqual(['10:MODIFIED', '13:MODIFIED', '14:DELETED']);
    // A later time-only change after a stored one is still compared with the last stored event.
    const again = await appender.append([deploymentObservation({ ...base, resourceVersion: '15', replicas: 5, time: '2026-11-21T11:00:00Z' })]);
    expect(again.unchanged).toBe(1);
  });

  it('keeps managedFields with their times and rebuilds bodies from patches and snapshots', async () => {
    const appender = foldingAppender(ds, capture);
    const observations = [1, 2, 3, 4, 5, 6, 7].map((i) =>
      deploymentObservation({ uid: 'body-1', resourceVersion: String(100 + i), replicas: i, image: `web:${i}`, time: `2026-11-21T10:0${i}:00Z` }),
    );
    await appender.append(observations.slice(0, 3));
    await appender.append(observations.slice(3));
    const history = await reader.history('test-cluster', 'body-1');
    expect(history.map((e) => e.bodyEncoding)).toEqual(['full', 'snapshot-patch', 'snapshot-patch', 'full', 'snapshot-patch', 'snapshot-patch', 'full']);
    for (const [i, e] of history.entries()) {
      const body = (await reader.bodyAt(e.seq)) as { spec: { replicas: number; template: { spec: { containers: { image: string }[] } } }; metadata: Record<string, unknown> };
      expect(body.spec.replicas).toBe(i + 1);
      expect(body.spec.template.spec.containers[0]!.image).toBe(`web:${i + 1}`);
      expect(body.metadata['managedFields']).toBeUndefined();
      const mf = await reader.managedFieldsOf(e);
      expect(mf).toEqual(observations[i]!.object.metadata.managedFields);
    }
    // The object keeps the hash of its last whole body, not a copy of a body.
    const [tip] = await ds.query(
      `SELECT o.snapshot_hash = e.body_hash AS same FROM objects o JOIN events e ON e.seq = $1 WHERE o.uid = 'body-1'`, [history.at(-1)!.seq]);
    expect(tip.same).toBe(true);
  });

  it('shares blobs between objects of the same shape', async () => {
    const appender = foldingAppender(ds, capture);
    const before = await ds.query(`SELECT count(*)::int AS n FROM blobs`);
    await appender.append([1, 2, 3, 4, 5].map((i) => deploymentObservation({ uid: `shape-${i}`, name: 'same', resourceVersion: '1' })));
    const after = await ds.query(`SELECT count(*)::int AS n FROM blobs`);
    // 3 entries + 1 list + 1 body, the same for the 5 objects
    expect(after[0].n - before[0].n).toBeLessThanOrEqual(5);
  });

  it('stores an object that a concurrent transaction created while the batch waited for it', async () => {
    const appender = foldingAppender(ds, capture);
    await appender.append([deploymentObservation({ uid: 'race-0', resourceVersion: '1' })]); // the cluster row
    const other = ds.createQueryRunner();
    await other.connect();
    try {
      // Another batch has created the object and not committed yet: this batch's insert waits for it.
      await other.startTransaction();
      await other.query(
        `INSERT INTO objects (cluster_id, uid, api_group, api_version, kind, resource, namespace, name, first_seen_at, last_seen_at)
         SELECT id, 'race-1', 'apps', 'v1', 'Deployment', 'deployments', 'default', 'web', now(), now() FROM clusters WHERE name = 'test-cluster'`,
      );
      const appending = appender.append([1, 2].map((i) => deploymentObservation({ uid: 'race-1', resourceVersion: String(i), replicas: i })));
      await waitForBlockedAppend();
      await other.commitTransaction();
      const r = await appending;
      expect({ stored: r.stored, duplicate: r.duplicate, objects: r.objects.length }).toEqual({ stored: 2, duplicate: 0, objects: 1 });
    } finally {
      await other.release();
    }
    expect((await reader.history('test-cluster', 'race-1')).map((e) => e.resourceVersion)).toEqual(['1', '2']);
  });

  it('patches against the whole body a concurrent batch committed while this one waited for the object', async () => {
    const appender = foldingAppender(ds, capture);
    const observations = [1, 2, 3].map((i) => deploymentObservation({ uid: 'snapshot-race', resourceVersion: String(i), replicas: i }));
    await appender.append(observations.slice(0, 1));
    const other = ds.createQueryRunner();
    await other.connect();
    try {
      // As another batch storing the second observation whole: its blob, its event, the object's new snapshot; not committed yet.
      await other.startTransaction();
      const blob = blobOf(JSON.stringify(storedBody(observations[1]!.object)));
      await other.query(`INSERT INTO blobs (hash, bytes) VALUES ($1, convert_to($2, 'UTF8')) ON CONFLICT DO NOTHING`, [blob.hash, blob.json]);
      await other.query(
        `INSERT INTO events (object_id, resource_version, api_version, event_type, source, observed_at, managed_fields_hash, managed_fields_times, values_hash, body_hash, body_encoding)
         SELECT e.object_id, '2', e.api_version, e.event_type, e.source, e.observed_at, e.managed_fields_hash, e.managed_fields_times, e.values_hash, $1, 'full'
         FROM events e JOIN objects o ON o.id = e.object_id WHERE o.uid = 'snapshot-race'`,
        [blob.hash],
      );
      await other.query(`UPDATE objects SET snapshot_hash = $1, events_since_snapshot = 0 WHERE uid = 'snapshot-race'`, [blob.hash]);
      const appending = appender.append(observations.slice(2));
      await waitForBlockedAppend();
      await other.commitTransaction();
      expect((await appending).stored).toBe(1);
    } finally {
      await other.release();
    }
    const history = await reader.history('test-cluster', 'snapshot-race');
    expect(history.map((e) => e.bodyEncoding)).toEqual(['full', 'full', 'snapshot-patch']);
    expect(await reader.bodyAt(history[2]!.seq)).toEqual(JSON.parse(JSON.stringify(storedBody(observations[2]!.object))));
  });

  it('never writes a Secret value to any table, including the last-applied annotation', async () => {
    const appender = foldingAppender(ds, capture);
    const password = 'hunter2-s3cr3t-value';
    await appender.append([secretObservation('secret-1', '1', password), secretObservation('secret-1', '2', `${password}-rotated`)]);
    const tables: { table_name: string }[] = await ds.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    expect(tables.length).toBeGreaterThan(5);
    // Nor the plain SHA-256 of the value (a guessed password could be confirmed with it).
    const sha = (v: string) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
    const needles = [password, Buffer.from(password).toString('base64'), sha(password), sha(Buffer.from(password).toString('base64'))];
    for (const { table_name } of tables) {
      // Whole rows as text: bytea shows as hex, so look for the hex form too.
      const rows: { t: string }[] = await ds.query(`SELECT t::text AS t FROM "${table_name}" t`);
      for (const r of rows) for (const n of needles) {
        expect(r.t).not.toContain(n);
        expect(r.t).not.toContain(Buffer.from(n).toString('hex'));
      }
    }
    // Blobs decoded as UTF-8 (they hold JSON).
    const blobs: { t: string }[] = await ds.query(`SELECT convert_from(bytes, 'UTF8') AS t FROM blobs`);
    for (const b of blobs) for (const n of needles) expect(b.t).not.toContain(n);
    // The paths survive, and a rotation is still visible as a change.
    const history = await reader.history('test-cluster', 'secret-1');
    expect(history).toHaveLength(2);
    const body = (await reader.bodyAt(history[0]!.seq)) as { data: { password: string }; metadata: { annotations: Record<string, string> } };
    expect(body.data.password).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    const lastApplied = JSON.parse(body.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']!);
    expect(lastApplied.stringData.password).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(lastApplied.metadata.name).toBe('db');
  });
});
