import type { DataSource } from 'typeorm';
import type { AsOf } from '../../../audit/src/index.js';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, scaledBy, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import { OwnershipQueries, type ManagerListItem } from '../projections/ownership-queries.js';
import { foldingAppender, projectorOn } from '../testing/worker-use-cases.js';
import { ProjectionGenerationsRepository } from '../projections/projection-generations.repository.js';
import { MANAGER_CHECKPOINTS_LOCK, ManagerCheckpoints, type CheckpointResult } from './manager-checkpoints.js';

/** One axis of the checkpoints: its positions, how `at=` names one, the versions in force there, its table. */
interface Axis {
  readonly name: 'sequence' | 'time';
  /** Every position the test lists the managers at. */
  positions(ds: DataSource): Promise<string[]>;
  asOf(position: string): AsOf;
  /** SQL: version `m` in force at `$1`. */
  readonly inForce: string;
  readonly table: string;
  readonly column: 'seq' | 'at';
  /** The positions a run built on this axis. */
  built(r: CheckpointResult): string[];
  /** SQL of a position of `m`'s start (as the axis orders them) and `m`'s start moved (`+ n`: later, `- n`: earlier). */
  readonly start: string;
}

const BY_SEQUENCE: Axis = {
  name: 'sequence',
  positions: async (ds) => (await ds.query(`SELECT e.seq::text AS seq FROM events e ORDER BY e.seq`)).map((r: { seq: string }) => r.seq),
  asOf: (seq) => ({ kind: 'seq', seq }),
  inForce: `m.seq <= $1::bigint AND (m.until_seq IS NULL OR m.until_seq > $1::bigint)`,
  table: 'manager_checkpoints',
  column: 'seq',
  built: (r) => r.built,
  start: 'm.seq',
};

const BY_TIME: Axis = {
  name: 'time',
  // Each event's time, and a millisecond before and after it.
  positions: async (ds) => {
    const times: number[] = (await ds.query(`SELECT DISTINCT date_trunc('milliseconds', e.observed_at) AS at FROM events e ORDER BY 1`)).map((r: { at: Date }) => r.at.getTime());
    return [...new Set(times.flatMap((t) => [t - 1, t, t + 1]))].sort((a, b) => a - b).map((t) => new Date(t).toISOString());
  },
  asOf: (time) => ({ kind: 'time', time, ms: Date.parse(time) }),
  inForce: `coalesce(m.at, '-infinity') <= $1::timestamptz AND (m.until_seq IS NULL OR coalesce(m.until_at, '-infinity') > $1::timestamptz)`,
  table: 'manager_time_checkpoints',
  column: 'at',
  built: (r) => r.times,
  start: 'm.at',
};

describe.each([BY_SEQUENCE, BY_TIME])('manager index checkpoints by $name (real Postgres): managers as of a moment from a checkpoint and the versions after it', (axis) => {
  let db: TestDatabase;
  let ds: DataSource;
  let positions: string[];
  const capture = () => loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture;

  /** The managers in force at `position` as the versions say them, summed row by row (the statement the checkpoints replace). */
  const inForce = async (position: string): Promise<unknown[]> => {
    const rows: { manager: string; objects: number; fields: number; identities: string[] }[] = await ds.query(
      `SELECT m.manager, count(*)::integer AS objects, sum(coalesce(m.identity_field_count, m.field_count))::integer AS fields,
              coalesce(array_agg(DISTINCT m.identities::text) FILTER (WHERE m.identities IS NOT NULL), '{}') AS identities
       FROM manager_objects_versions m, projection_generations g
       WHERE g.projection = 'ownership' AND m.generation = g.active AND ${axis.inForce}
       GROUP BY m.manager ORDER BY m.manager COLLATE "C"`,
      [position],
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
  /** `GET /v1/managers?at=` at every position equals the versions in force then. */
  const expectEveryPositionAsTheVersions = async () => {
    const queries = new OwnershipQueries(ds);
    for (const position of positions) {
      const page = await queries.managers(axis.asOf(position), undefined, 500);
      expect({ position, items: normalized(page.items) }).toEqual({ position, items: await inForce(position) });
    }
  };
  const text = (position: string | Date): string => (position instanceof Date ? position.toISOString() : position);
  const checkpointed = async (): Promise<string[]> =>
    (await ds.query(`SELECT c.${axis.column} AS p FROM ${axis.table} c ORDER BY c.${axis.column}`)).map((r: { p: string | Date }) => text(r.p));
  const before = (a: string, b: string): boolean => (axis.name === 'time' ? Date.parse(a) < Date.parse(b) : BigInt(a) < BigInt(b));

  beforeAll(async () => {
    db = await createTestDatabase('manager_checkpoints');
    ds = await createDataSource(db.url, 4).initialize();
    const appender = foldingAppender(ds, capture());
    // Twelve Deployments; an HPA scales some, a second scaler takes some over, a few are deleted.
    for (let round = 0; round < 4; round++) {
      const batch = [];
      for (let i = 0; i < 12; i++) {
        // Every event its own time, a second apart (the time axis needs distinct ones to tell checkpoints apart).
        const observedAt = new Date(Date.UTC(2026, 10, 29, 10, round, i)).toISOString();
        const base = deploymentObservation({ uid: `d${i}`, resourceVersion: `${round * 10 + 1}`, type: round === 0 ? 'ADDED' : 'MODIFIED', observedAt });
        if (round === 0) batch.push(base);
        else if (round === 3 && i % 5 === 0) batch.push({ ...base, type: 'DELETED' as const });
        else if ((i + round) % 3 === 0) batch.push(scaledBy(base, round === 2 ? 'keda' : 'hpa', round + i, `${round * 10 + 2}`));
      }
      await appender.append(batch);
    }
    await projectorOn(ds).catchUp({ waitForHeldBackMs: 60_000 });
    positions = await axis.positions(ds);
    expect(positions.length).toBeGreaterThan(20);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('answers as the versions in force at every moment without checkpoints, with them, and after a late change below one; rebuilds what the change took', async () => {
    await expectEveryPositionAsTheVersions();
    // The answers come from the versions (not from folding the events): moved a century later, none is in force.
    await ds.query(`UPDATE manager_objects_versions SET seq = seq + 1000000000, at = at + interval '100 years'`);
    try {
      expect((await new OwnershipQueries(ds).managers(axis.asOf(positions.at(-1)!), undefined, 500)).items).toEqual([]);
    } finally {
      await ds.query(`UPDATE manager_objects_versions SET seq = seq - 1000000000, at = at - interval '100 years'`);
    }

    const builder = new ManagerCheckpoints(ds, { every: 4 });
    const first = await builder.run();
    if (axis.name === 'sequence') expect(first.built.length).toBe(Math.floor(Number(positions.at(-1)) / 4));
    else expect(first.times.length).toBeGreaterThan(5);
    expect(await checkpointed()).toEqual(axis.built(first));
    expect(await builder.run()).toEqual({ built: [], times: [], rows: 0 });
    await expectEveryPositionAsTheVersions();

    // A version projected late below the checkpoints (or re-projected): the checkpoints at or after it go, the rest stay.
    const [second] = axis.built(first).slice(1);
    const [low] = await ds.query(
      `SELECT m.object_id, m.manager, m.seq::text AS seq, ${axis.start} AS position FROM manager_objects_versions m WHERE ${axis.start} > $1 ORDER BY ${axis.start}, m.seq LIMIT 1`,
      [second],
    );
    await ds.query(`UPDATE manager_objects_versions SET field_count = field_count + 3, identity_field_count = identity_field_count + 3 WHERE object_id = $1 AND manager = $2 AND seq = $3`, [
      low.object_id, low.manager, low.seq,
    ]);
    const kept = axis.built(first).filter((p) => before(p, text(low.position)));
    expect(kept.length).toBeGreaterThan(1);
    expect(await checkpointed()).toEqual(kept);
    await expectEveryPositionAsTheVersions();
    // An update that changes no start or end (sums the same) leaves them.
    const unchanged = await checkpointed();
    await ds.query(`UPDATE manager_objects_versions SET at = at, seq = seq WHERE seq <= 4`);
    expect(await checkpointed()).toEqual(unchanged);

    const rebuilt = await builder.run();
    expect(await checkpointed()).toEqual(axis.built(first));
    expect(axis.built(rebuilt)).toEqual(axis.built(first).filter((p) => !before(p, text(low.position))));
    await expectEveryPositionAsTheVersions();

    // A version closed late (its manager gone), and rows deleted in a data-modifying CTE.
    await ds.query(`UPDATE manager_objects_versions SET until_seq = seq + 1, until_at = at + interval '500 milliseconds' WHERE until_seq IS NULL AND manager = 'hpa' AND seq < 6`);
    await ds.query(`WITH gone AS (DELETE FROM manager_objects_versions WHERE manager = 'keda' AND object_id::bigint % 2 = 0 RETURNING 1) SELECT count(*) FROM gone`);
    await builder.run();
    const after = await checkpointed();
    // By sequence they sit where they sat; by time, at every fourth start of the versions now (some are gone): as built from none.
    if (axis.name === 'sequence') expect(after).toEqual(axis.built(first));
    await ds.query(`DELETE FROM ${axis.table}`);
    expect(axis.built(await builder.run())).toEqual(after);
    await expectEveryPositionAsTheVersions();
  });

  it('never builds a checkpoint that misses a batch committing meanwhile, and never queues ahead of the batches', async () => {
    await ds.query(`DELETE FROM ${axis.table}`);
    const batch = ds.createQueryRunner();
    try {
      await batch.startTransaction();
      // A late version at the lowest sequence (and, without a time, before every time), its trigger run (the shared lock held) before the build starts.
      await batch.query(
        `INSERT INTO manager_objects_versions (generation, object_id, manager, seq, until_seq, cluster, field_count, identities, identity_field_count)
         SELECT generation, object_id, 'late', seq, NULL, cluster, 2, '[["Update","apps/v1",""]]', 2 FROM manager_objects_versions ORDER BY seq LIMIT 1`,
      );
      // The build gives up rather than wait (a waiting exclusive request would hold up every other batch's trigger).
      expect(await new ManagerCheckpoints(ds, { every: 4 }).run()).toEqual({ built: [], times: [], rows: 0 });
      // Another batch's trigger takes the shared lock meanwhile without waiting.
      await ds.query(`UPDATE manager_objects_versions SET at = at WHERE manager = 'hpa'`);
      await batch.commitTransaction();
    } finally {
      await batch.release();
    }
    expect(axis.built(await new ManagerCheckpoints(ds, { every: 4 }).run()).length).toBeGreaterThan(0);
    await expectEveryPositionAsTheVersions();
    expect((await new OwnershipQueries(ds).managers(axis.asOf(positions.at(-1)!), undefined, 500)).items.map((m) => m.manager)).toContain('late');
  });

  it('keeps answering as the versions when the projector replays an object below the checkpoints (they are built again)', async () => {
    const builder = new ManagerCheckpoints(ds, { every: 4 });
    await builder.run();
    const all = await checkpointed();
    const [{ object_id }] = await ds.query(`SELECT m.object_id FROM manager_objects_versions m WHERE m.manager = 'hpa' ORDER BY m.seq LIMIT 1`);
    await projectorOn(ds).replay({ kind: 'object', objectId: object_id });
    await expectEveryPositionAsTheVersions();
    await builder.run();
    expect(await checkpointed()).toEqual(all);
    await expectEveryPositionAsTheVersions();
  });

  if (axis.name === 'time') it('by time: places checkpoints among ends as among starts, and at whole milliseconds whatever the versions\' precision', async () => {
    const builder = new ManagerCheckpoints(ds, { every: 4 });
    await builder.run();
    const before = await checkpointed();
    // Every open version closed a minute after the newest time (a namespace deleted): ends, no start.
    const [{ newest }] = await ds.query(`SELECT max(at) AS newest FROM manager_objects_versions`);
    const closed: number = (await ds.query(
      `WITH c AS (UPDATE manager_objects_versions SET until_seq = seq + 100000, until_at = $1::timestamptz + interval '1 minute' + (seq % 7) * interval '1 second'
                  WHERE until_seq IS NULL RETURNING 1) SELECT count(*)::integer AS n FROM c`,
      [newest],
    ))[0].n;
    expect(closed).toBeGreaterThan(8);
    const ends = axis.built(await builder.run()).filter((p) => Date.parse(p) > Date.parse(text(newest)));
    expect(ends.length).toBeGreaterThan(0);
    positions.push(...ends, new Date(Date.parse(text(newest)) + 120_000).toISOString());
    await expectEveryPositionAsTheVersions();

    // Versions timed within a millisecond of each other (a writer keeping microseconds): positions stay whole and increasing.
    await ds.query(`DELETE FROM ${axis.table}`);
    await ds.query(
      `INSERT INTO manager_objects_versions (generation, object_id, manager, seq, until_seq, cluster, field_count, identities, identity_field_count, at, until_at)
       SELECT generation, object_id, 'fine-' || i, seq, NULL, cluster, 1, '[["Update","apps/v1",""]]', 1, at + i * interval '100 microseconds', NULL
       FROM (SELECT * FROM manager_objects_versions WHERE at IS NOT NULL ORDER BY seq LIMIT 1) v, generate_series(1, 30) i`,
    );
    const fine = axis.built(await builder.run());
    expect(fine.length).toBeGreaterThan(before.length / 2);
    expect(fine.every((p, i) => p.endsWith('Z') && (i === 0 || Date.parse(p) > Date.parse(fine[i - 1]!)))).toBe(true);
    expect(axis.built(await builder.run())).toEqual([]);
    await expectEveryPositionAsTheVersions();
  });

  it('a generation dropped while a build of it is in flight loses that checkpoint too: the drop waits for the build', async () => {
    const generations = new ProjectionGenerationsRepository(ds);
    const active = await generations.active();
    const retired = active + 1;
    // A build in flight on a generation that is being retired (one without versions, so no trigger of theirs takes it away):
    // it holds the lock and has written its checkpoint, not yet committed.
    const build = ds.createQueryRunner();
    let dropped = false;
    try {
      await build.startTransaction();
      await build.query(`SELECT pg_advisory_xact_lock($1)`, [MANAGER_CHECKPOINTS_LOCK]);
      await build.query(`INSERT INTO ${axis.table} (generation, ${axis.column}) VALUES ($1, $2)`, [retired, positions[0]]);
      const rebuild = generations.beginRebuild().then((n) => ((dropped = true), n));
      await new Promise((r) => setTimeout(r, 500));
      expect(dropped).toBe(false); // the drop of other generations' checkpoints waits for the build
      await build.commitTransaction();
      expect(await rebuild).toBe(retired);
    } finally {
      await build.release();
    }
    expect(await ds.query(`SELECT generation FROM ${axis.table} WHERE generation <> $1`, [active])).toEqual([]);
    await ds.query(`UPDATE projection_generations SET building = NULL`);
    await expectEveryPositionAsTheVersions();
  });

  it('counts a version that ends where or before it starts nowhere, as the versions in force do', async () => {
    await ds.query(
      `INSERT INTO manager_objects_versions (generation, object_id, manager, seq, until_seq, cluster, field_count, identities, identity_field_count, at, until_at)
       SELECT generation, object_id, 'backwards', seq + 5, seq + 1, cluster, 2, '[["Update","apps/v1",""]]', 2, at + interval '5 seconds', at + interval '1 second'
       FROM manager_objects_versions WHERE at IS NOT NULL ORDER BY seq LIMIT 1`,
    );
    await new ManagerCheckpoints(ds, { every: 4 }).run();
    await expectEveryPositionAsTheVersions();
  });
});
