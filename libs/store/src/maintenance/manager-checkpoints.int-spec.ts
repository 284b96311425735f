import type { DataSource } from 'typeorm';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, scaledBy, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import { OwnershipQueries, type ManagerListItem } from '../projections/ownership-queries.js';
import { foldingAppender, projectorOn } from '../testing/worker-use-cases.js';
import { ManagerCheckpoints } from './manager-checkpoints.js';

describe('manager index checkpoints (real Postgres): managers as of a sequence from a checkpoint and the versions after it', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let seqs: string[];
  const capture = () => loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture;

  /** The managers in force at `seq` as the versions say them, summed row by row (the statement the checkpoints replace). */
  const inForce = async (seq: string): Promise<unknown[]> => {
    const rows: { manager: string; objects: number; fields: number; identities: string[] }[] = await ds.query(
      `SELECT m.manager, count(*)::integer AS objects, sum(coalesce(m.identity_field_count, m.field_count))::integer AS fields,
              coalesce(array_agg(DISTINCT m.identities::text) FILTER (WHERE m.identities IS NOT NULL), '{}') AS identities
       FROM manager_objects_versions m, projection_generations g
       WHERE g.projection = 'ownership' AND m.generation = g.active AND m.seq <= $1::bigint AND (m.until_seq IS NULL OR m.until_seq > $1::bigint)
       GROUP BY m.manager ORDER BY m.manager COLLATE "C"`,
      [seq],
    );
    return rows.map((r) => ({
      manager: r.manager,
      identities: [...new Set(r.identities.flatMap((t) => JSON.parse(t) as [string, string, string][]).map((i) => JSON.stringify(i)))]
        .map((i) => JSON.parse(i) as [string, string, string])
        .map(([operation, apiVersion, subresource]) => ({ operation, apiVersion, subresource }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      objectCount: r.objects,
      fieldCount: r.fields,
    }));
  };
  const normalized = (items: readonly ManagerListItem[]) =>
    items.map((m) => ({ ...m, identities: [...m.identities].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) }));
  /** `GET /v1/managers?at=` at every sequence of the log equals the versions in force then. */
  const expectEverySeqAsTheVersions = async () => {
    const queries = new OwnershipQueries(ds);
    for (const seq of seqs) {
      const page = await queries.managers({ kind: 'seq', seq }, undefined, 500);
      expect({ seq, items: normalized(page.items) }).toEqual({ seq, items: await inForce(seq) });
    }
  };
  const checkpointed = async (): Promise<string[]> =>
    (await ds.query(`SELECT c.seq::text AS seq FROM manager_checkpoints c ORDER BY c.seq`)).map((r: { seq: string }) => r.seq);

  beforeAll(async () => {
    db = await createTestDatabase('manager_checkpoints');
    ds = await createDataSource(db.url, 4).initialize();
    const appender = foldingAppender(ds, capture());
    // Twelve Deployments; an HPA scales some, a second scaler takes some over, a few are deleted.
    for (let round = 0; round < 4; round++) {
      const batch = [];
      for (let i = 0; i < 12; i++) {
        const base = deploymentObservation({ uid: `d${i}`, resourceVersion: `${round * 10 + 1}`, type: round === 0 ? 'ADDED' : 'MODIFIED' });
        if (round === 0) batch.push(base);
        else if (round === 3 && i % 5 === 0) batch.push({ ...base, type: 'DELETED' as const });
        else if ((i + round) % 3 === 0) batch.push(scaledBy(base, round === 2 ? 'keda' : 'hpa', round + i, `${round * 10 + 2}`));
      }
      await appender.append(batch);
    }
    await projectorOn(ds).catchUp({ waitForHeldBackMs: 60_000 });
    seqs = (await ds.query(`SELECT e.seq::text AS seq FROM events e ORDER BY e.seq`)).map((r: { seq: string }) => r.seq);
    expect(seqs.length).toBeGreaterThan(20);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('answers as the versions in force at every sequence without checkpoints, with them, and after a late change below one; rebuilds what the change took', async () => {
    await expectEverySeqAsTheVersions();

    const builder = new ManagerCheckpoints(ds, { every: 4 });
    const first = await builder.run();
    expect(first.built.length).toBe(Math.floor(Number(seqs.at(-1)) / 4));
    expect(await checkpointed()).toEqual(first.built);
    expect(await builder.run()).toEqual({ built: [], rows: 0 });
    await expectEverySeqAsTheVersions();

    // A version projected late below the checkpoints (or re-projected): the checkpoints at or after it go, the rest stay.
    const [low] = await ds.query(`SELECT m.object_id, m.manager, m.seq::text AS seq FROM manager_objects_versions m WHERE m.seq > 4 ORDER BY m.seq LIMIT 1`);
    await ds.query(`UPDATE manager_objects_versions SET field_count = field_count + 3, identity_field_count = identity_field_count + 3 WHERE object_id = $1 AND manager = $2 AND seq = $3`, [
      low.object_id, low.manager, low.seq,
    ]);
    expect(await checkpointed()).toEqual(first.built.filter((s) => BigInt(s) < BigInt(low.seq)));
    await expectEverySeqAsTheVersions();
    // An update that changes no start or end (sums the same) leaves them.
    const before = await checkpointed();
    await ds.query(`UPDATE manager_objects_versions SET at = at WHERE seq <= 4`);
    expect(await checkpointed()).toEqual(before);

    const rebuilt = await builder.run();
    expect(await checkpointed()).toEqual(first.built);
    expect(rebuilt.built).toEqual(first.built.filter((s) => BigInt(s) >= BigInt(low.seq)));
    await expectEverySeqAsTheVersions();

    // A version closed late (its manager gone), and rows deleted in a data-modifying CTE.
    await ds.query(`UPDATE manager_objects_versions SET until_seq = seq + 1 WHERE until_seq IS NULL AND manager = 'hpa' AND seq < 6`);
    await ds.query(`WITH gone AS (DELETE FROM manager_objects_versions WHERE manager = 'keda' AND object_id::bigint % 2 = 0 RETURNING 1) SELECT count(*) FROM gone`);
    await builder.run();
    expect(await checkpointed()).toEqual(first.built);
    await expectEverySeqAsTheVersions();
  });

  it('never builds a checkpoint that misses a batch committing meanwhile, and never queues ahead of the batches', async () => {
    await ds.query(`DELETE FROM manager_checkpoints`);
    const batch = ds.createQueryRunner();
    try {
      await batch.startTransaction();
      // A late version at the lowest sequence, its trigger run (the shared lock held) before the build starts.
      await batch.query(
        `INSERT INTO manager_objects_versions (generation, object_id, manager, seq, until_seq, cluster, field_count, identities, identity_field_count)
         SELECT generation, object_id, 'late', seq, NULL, cluster, 2, '[["Update","apps/v1",""]]', 2 FROM manager_objects_versions ORDER BY seq LIMIT 1`,
      );
      // The build gives up rather than wait (a waiting exclusive request would hold up every other batch's trigger).
      expect(await new ManagerCheckpoints(ds, { every: 4 }).run()).toEqual({ built: [], rows: 0 });
      // Another batch's trigger takes the shared lock meanwhile without waiting.
      await ds.query(`UPDATE manager_objects_versions SET at = at WHERE manager = 'hpa'`);
      await batch.commitTransaction();
    } finally {
      await batch.release();
    }
    expect((await new ManagerCheckpoints(ds, { every: 4 }).run()).built.length).toBeGreaterThan(0);
    await expectEverySeqAsTheVersions();
    expect((await new OwnershipQueries(ds).managers({ kind: 'seq', seq: seqs.at(-1)! }, undefined, 500)).items.map((m) => m.manager)).toContain('late');
  });

  it('keeps answering as the versions when the projector replays an object below the checkpoints (they are built again)', async () => {
    const builder = new ManagerCheckpoints(ds, { every: 4 });
    await builder.run();
    const all = await checkpointed();
    const [{ object_id }] = await ds.query(`SELECT m.object_id FROM manager_objects_versions m WHERE m.manager = 'hpa' ORDER BY m.seq LIMIT 1`);
    await projectorOn(ds).replay({ kind: 'object', objectId: object_id });
    await expectEverySeqAsTheVersions();
    await builder.run();
    expect(await checkpointed()).toEqual(all);
    await expectEverySeqAsTheVersions();
  });

  it('counts a version that ends where or before it starts nowhere, as the versions in force do', async () => {
    await ds.query(
      `INSERT INTO manager_objects_versions (generation, object_id, manager, seq, until_seq, cluster, field_count, identities, identity_field_count)
       SELECT generation, object_id, 'backwards', seq + 5, seq + 1, cluster, 2, '[["Update","apps/v1",""]]', 2 FROM manager_objects_versions ORDER BY seq LIMIT 1`,
    );
    await new ManagerCheckpoints(ds, { every: 4 }).run();
    await expectEverySeqAsTheVersions();
  });
});
