import type { DataSource, QueryRunner } from 'typeorm';
import type { Observation } from '../../../common/src/index.js';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, type TestDatabase } from '../../../testing/src/index.js';
import { EventAppender } from './event-appender.js';
import { createDataSource } from '../database/database.js';
import { EventReader } from './event-reader.js';
import { START_POSITION, type EventPosition } from './event-position.js';
import { CheckpointRepository } from './checkpoint.repository.js';
import { ProjectedEventLog } from './projected-event-log.js';

/** Inserts one bare event for `objectId` inside the caller's transaction; returns its seq. */
async function insertEvent(q: QueryRunner, objectId: string, rv: string): Promise<string> {
  const h = Buffer.alloc(32, 1);
  const [row] = await q.query(
    `INSERT INTO events (object_id, resource_version, api_version, event_type, source, observed_at, managed_fields_hash,
                         managed_fields_times, values_hash, body_hash, body_encoding)
     VALUES ($1, $2, 'v1', 'MODIFIED', 'watch', now(), $3, '[]', $3, $3, 'full') RETURNING seq`,
    [objectId, rv, h],
  );
  return String(row.seq);
}

async function begin(ds: DataSource): Promise<QueryRunner> {
  const q = ds.createQueryRunner();
  await q.connect();
  await q.startTransaction();
  return q;
}

describe('EventReader.readAfter: late commits are never skipped (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let reader: EventReader;
  let objectId: string;

  /** Reads everything readable from `from`, like a projection would, returning the new position and what it saw. */
  async function drain(from: EventPosition): Promise<{ position: EventPosition; seen: string[] }> {
    const seen: string[] = [];
    let position = from;
    for (;;) {
      const page = await reader.readAfter(position, 2);
      if (page.length === 0) return { position, seen };
      for (const e of page) seen.push(e.resourceVersion);
      position = { xid: page.at(-1)!.xid, seq: page.at(-1)!.seq };
    }
  }

  /**
   * Drains until `count` events were seen: a transaction of another database on the same server (other
   * test runs) holds every reader back too, until it ends.
   */
  async function drainUntil(from: EventPosition, count: number, timeoutMs = 60_000): Promise<{ position: EventPosition; seen: string[] }> {
    const seen: string[] = [];
    let position = from;
    const deadline = Date.now() + timeoutMs;
    while (seen.length < count && Date.now() < deadline) {
      const r = await drain(position);
      seen.push(...r.seen);
      position = r.position;
      if (seen.length < count) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { position, seen };
  }

  beforeAll(async () => {
    db = await createTestDatabase('reader');
    ds = await createDataSource(db.url, 6).initialize();
    reader = new EventReader(ds);
    await ds.query(`INSERT INTO clusters (name) VALUES ('c')`);
    const [o] = await ds.query(
      `INSERT INTO objects (cluster_id, uid, api_group, api_version, kind, resource, namespace, name, first_seen_at, last_seen_at)
       SELECT id, 'u', '', 'v1', 'ConfigMap', 'configmaps', 'default', 'cm', now(), now() FROM clusters RETURNING id`,
    );
    objectId = String(o.id);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('holds the reader behind an open transaction whose event has the lower sequence', async () => {
    const early = await begin(ds);
    const late = await begin(ds);
    const earlySeq = await insertEvent(early, objectId, 'early');
    const lateSeq = await insertEvent(late, objectId, 'late');
    expect(BigInt(earlySeq)).toBeLessThan(BigInt(lateSeq));
    await late.commitTransaction(); // the higher sequence commits first

    const first = await drain(START_POSITION);
    expect(first.seen).toEqual([]); // "late" is committed but waits behind the open "early"

    await early.commitTransaction();
    const second = await drainUntil(first.position, 2);
    expect(second.seen).toEqual(['early', 'late']);
    await Promise.all([early.release(), late.release()]);
  });

  it('does not skip an event whose transaction started first but drew its sequence last', async () => {
    const start = (await drain(START_POSITION)).position;
    const older = await begin(ds);
    await older.query(`SELECT pg_current_xact_id()`); // takes its transaction id now
    const newer = await begin(ds);
    const newerSeq = await insertEvent(newer, objectId, 'newer');
    await newer.commitTransaction();
    const olderSeq = await insertEvent(older, objectId, 'older');
    expect(BigInt(olderSeq)).toBeGreaterThan(BigInt(newerSeq));

    const mid = await drain(start);
    expect(mid.seen).toEqual([]); // a seq-only reader would have returned "newer" and then skipped "older"

    await older.commitTransaction();
    const end = await drainUntil(mid.position, 2);
    expect(end.seen.sort()).toEqual(['newer', 'older']);
    expect((await drain(end.position)).seen).toEqual([]);
    await Promise.all([older.release(), newer.release()]);
  });

  it('returns each event exactly once across many concurrent writers', async () => {
    let position = (await drain(START_POSITION)).position;
    const seen: string[] = [];
    const writers = Array.from({ length: 5 }, async (_, w) => {
      for (let i = 0; i < 20; i++) {
        const q = await begin(ds);
        await insertEvent(q, objectId, `w${w}-${i}`);
        await new Promise((r) => setTimeout(r, Math.random() * 5));
        await q.commitTransaction();
        await q.release();
      }
    });
    const done = Promise.all(writers);
    let finished = false;
    void done.then(() => (finished = true));
    while (!finished) {
      const r = await drain(position);
      position = r.position;
      seen.push(...r.seen);
    }
    seen.push(...(await drainUntil(position, 100 - seen.length)).seen);
    expect(seen).toHaveLength(100);
    expect(new Set(seen).size).toBe(100);
  });

  it('the projected log serves only what the active ownership generation has folded, and its end never moves back', async () => {
    const all = (await drain(START_POSITION)).position;
    const q = await begin(ds);
    const rv = ['p1', 'p2', 'p3'];
    for (const v of rv) await insertEvent(q, objectId, v);
    await q.commitTransaction();
    await q.release();
    const appended = await drainUntil(all, 3);
    expect(appended.seen).toEqual(rv);
    const generation = Number((await ds.query(`SELECT active FROM projection_generations WHERE projection = 'ownership'`))[0].active);
    const checkpoints = new CheckpointRepository(ds);
    const log = new ProjectedEventLog(reader);
    const served = async (from = all) => (await log.readAfter(from, 10)).map((e) => e.resourceVersion);

    // Nothing folded after `all` yet: nothing to serve, and the end is where the projector stands.
    await checkpoints.advance(`ownership@${generation}`, all);
    expect(await served()).toEqual([]);
    expect(await log.tail()).toEqual(all);
    expect(await reader.projectedPosition()).toEqual(all);

    const page = await reader.readAfter(all, 2);
    const second = { xid: page[1]!.xid, seq: page[1]!.seq };
    await checkpoints.advance(`ownership@${generation}`, second);
    expect(await served()).toEqual(['p1', 'p2']);
    expect(await log.tail()).toEqual(second);
    // Another generation's checkpoint (a replay being built) moves nothing.
    await checkpoints.advance(`ownership@${generation + 1}`, appended.position);
    expect(await served()).toEqual(['p1', 'p2']);

    // The checkpoint goes back (projections rebuilt): what was served stays served; a fresh log starts from the checkpoint.
    await ds.query(`UPDATE projection_checkpoints SET last_xid = $2::xid8, last_seq = $3::bigint WHERE projection = $1`, [`ownership@${generation}`, all.xid, all.seq]);
    expect(await served()).toEqual(['p1', 'p2']);
    expect(await log.tail()).toEqual(second);
    expect(await new ProjectedEventLog(reader).tail()).toEqual(all);

    await checkpoints.advance(`ownership@${generation}`, appended.position);
    expect(await served()).toEqual(rv);
    expect(await served(second)).toEqual(['p3']);
  });
});

describe('EventReader.readAfterWithin: pages bounded by the bodies a fold rebuilds (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('reader_within');
    ds = await createDataSource(db.url, 4).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('cuts before the event that would pass the bound, counts a patch as its snapshot, and always gives the first event', async () => {
    const appender = new EventAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture, null);
    const configMap = (uid: string, rv: string, kb: number): Observation => {
      const o = deploymentObservation({ uid, resourceVersion: rv });
      return { ...o, object: { ...o.object, spec: { ...(o.object['spec'] as object), dashboard: 'x'.repeat(kb * 1000) } } };
    };
    await appender.append([configMap('a', '1', 100), configMap('b', '1', 100), configMap('c', '1', 300), configMap('d', '1', 200)]);
    // a's second event, stored as a patch of its snapshot: it counts the snapshot it is rebuilt from.
    await appender.append([{ ...configMap('a', '2', 100), object: { ...configMap('a', '2', 100).object, metadata: { ...configMap('a', '2', 100).object.metadata, labels: { app: 'a', rev: '2' } } } }]);
    const reader = new EventReader(ds);
    const all = await reader.readAfter(START_POSITION, 100);
    expect(all.map((e) => `${e.uid}/${e.resourceVersion}/${e.bodyEncoding}`)).toEqual(['a/1/full', 'b/1/full', 'c/1/full', 'd/1/full', 'a/2/snapshot-patch']);

    const pages: string[][] = [];
    let position = START_POSITION;
    for (;;) {
      const page = await reader.readAfterWithin(position, 100, 250_000);
      if (page.length === 0) break;
      // Each page is the start of what an unbounded read gives from the same position.
      expect(page).toEqual((await reader.readAfter(position, 100)).slice(0, page.length));
      pages.push(page.map((e) => `${e.uid}/${e.resourceVersion}`));
      position = { xid: page.at(-1)!.xid, seq: page.at(-1)!.seq };
    }
    // d (200 KB) and a's patch (its 100 KB snapshot) pass the bound together; counted by its own bytes, the patch would have joined d.
    expect(pages).toEqual([['a/1', 'b/1'], ['c/1'], ['d/1'], ['a/2']]);
    // A count under the bound still cuts.
    expect((await reader.readAfterWithin(START_POSITION, 1, 10 ** 9)).length).toBe(1);
  });
});
