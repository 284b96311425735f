import type { DataSource } from 'typeorm';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import { CheckpointRepository } from '../events/checkpoint.repository.js';
import { EventAppender } from '../events/event-appender.js';
import { ownershipCheckpoint } from './ownership-projection.store.js';
import type { OwnershipProjector } from '../../../audit/src/index.js';
import { foldingAppender, projectorOn } from '../testing/worker-use-cases.js';

describe('OwnershipProjector over the real event log (Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let appender: EventAppender;
  let projector: OwnershipProjector;

  const lastSeqOf = async (uid: string): Promise<string | undefined> =>
    (
      await ds.query(
        `SELECT s.last_seq::text AS seq FROM ownership_states s JOIN objects o ON s.object_id = o.id::text WHERE o.uid = $1 AND s.generation = 1`,
        [uid],
      )
    )[0]?.seq;

  beforeAll(async () => {
    db = await createTestDatabase('projector');
    ds = await createDataSource(db.url, 6).initialize();
    appender = foldingAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture);
    projector = projectorOn(ds, { pageSize: 2 });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('never skips an event committed late by an older transaction, and the checkpoint waits for it', async () => {
    await appender.append([deploymentObservation({ uid: 'x', resourceVersion: '1' }), deploymentObservation({ uid: 'y', resourceVersion: '1' })]);
    // Transactions of other databases on the server hold every reader back too: wait them out.
    const first = await projector.catchUp({ waitForHeldBackMs: 60_000 });
    expect(first.events).toBe(2);

    // An older transaction writes an event of x (lower seq, older xid) and stays open...
    const late = ds.createQueryRunner();
    await late.connect();
    await late.startTransaction();
    const [row] = await late.query(
      `INSERT INTO events (object_id, resource_version, api_version, event_type, source, observed_at, managed_fields_hash,
                           managed_fields_times, values_hash, body_hash, body_encoding)
       SELECT object_id, 'late', api_version, 'MODIFIED', source, observed_at, managed_fields_hash, managed_fields_times, values_hash, body_hash, body_encoding
       FROM events e WHERE e.object_id = (SELECT id FROM objects WHERE uid = 'x') RETURNING seq::text AS seq`,
    );
    const lateSeq: string = row.seq;
    // ... while a newer one commits an event of y with a higher seq.
    await appender.append([deploymentObservation({ uid: 'y', resourceVersion: '2', replicas: 5 })]);
    const ySeq: string = (await ds.query(`SELECT max(seq)::text AS seq FROM events`))[0].seq;
    expect(BigInt(ySeq)).toBeGreaterThan(BigInt(lateSeq));

    const held = await projector.catchUp({ waitForHeldBackMs: 300 });
    expect(held).toMatchObject({ events: 0, heldBack: 1 }); // held back behind the open transaction: nothing is read past it
    const checkpoint = await new CheckpointRepository(ds).get(ownershipCheckpoint(1));
    expect(BigInt(checkpoint.seq)).toBeLessThan(BigInt(lateSeq));
    expect(await projector.lag()).toBe(1);

    await late.commitTransaction();
    await late.release();
    const after = await projector.catchUp({ waitForHeldBackMs: 60_000 });
    expect(after).toMatchObject({ events: 2, heldBack: 0 });
    expect(await lastSeqOf('x')).toBe(lateSeq);
    expect(await lastSeqOf('y')).toBe(ySeq);
    expect(await projector.lag()).toBe(0);
  });

  it('replays one object and everything to the same rows', async () => {
    const rows = () => ds.query(`SELECT object_id, state, state_compressed, (SELECT json_agg(transition ORDER BY seq, ordinal) FROM field_transitions t WHERE t.object_id = s.object_id AND t.generation = s.generation) AS ts
                                 FROM ownership_states s WHERE s.generation = (SELECT active FROM projection_generations) ORDER BY object_id`);
    const before = await rows();
    const progress: number[] = [];
    await projector.replay({ kind: 'all' }, (p) => void progress.push(p.percent));
    expect(await rows()).toEqual(before);
    expect(progress.length).toBeGreaterThan(0);
    const id = before[0].object_id as string;
    const one = await projector.replay({ kind: 'object', objectId: id });
    expect(one).toMatchObject({ objects: 1, percent: 100 });
    expect(await rows()).toEqual(before);
    await projector.replay({ kind: 'cluster', cluster: 'test-cluster' });
    expect(await rows()).toEqual(before);
  });
});
