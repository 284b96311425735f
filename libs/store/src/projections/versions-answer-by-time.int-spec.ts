import { jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { AsOf } from '../../../audit/src/index.js';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, scaledBy, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import { EventAppender } from '../events/event-appender.js';
import { ManagerCheckpoints } from '../maintenance/manager-checkpoints.js';
import { foldingAppender, projectorOn } from '../testing/worker-use-cases.js';
import { OwnershipQueries } from './ownership-queries.js';

const capture = () => loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture;
const minute = (m: number): string => new Date(Date.UTC(2026, 10, 29, 10, m)).toISOString();
const asOf = (time: string): AsOf => ({ kind: 'time', time, ms: Date.parse(time) });

describe('lists as of a time read the versions, and time checkpoints are built, only up to the first event observed not projected yet (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('versions_answer_by_time');
    ds = await createDataSource(db.url, 4).initialize();
    await foldingAppender(ds, capture()).append([1, 2, 3].map((m) => deploymentObservation({ uid: `d${m}`, resourceVersion: `${m}`, type: 'ADDED', observedAt: minute(m) })));
    await projectorOn(ds).catchUp({ waitForHeldBackMs: 60_000 });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('folds while an event observed by then waits for the projector (its object not yet in the projection too), and reads the versions when the only such event was observed later', async () => {
    const queries = new OwnershipQueries(ds);
    const folds = jest.spyOn(OwnershipQueries.prototype as unknown as { forEachStateAt: () => Promise<void> }, 'forEachStateAt');
    const managers = async (time: string) => (await queries.managers(asOf(time), undefined, 100)).items.map((m) => m.manager);
    try {
      const before = await managers(minute(3));
      expect(folds).not.toHaveBeenCalled();

      // Stored by an appender that leaves it to the projector: observed at 10:05, after the time asked about.
      const plain = new EventAppender(ds, capture(), null);
      await plain.append([scaledBy(deploymentObservation({ uid: 'later', resourceVersion: '5', type: 'ADDED', observedAt: minute(5) }), 'later-scaler', 2, '6')]);
      expect(await managers(minute(3))).toEqual(before);
      expect(folds).not.toHaveBeenCalled();
      // The time checkpoints are built up to it (every version start here, at 10:01, 10:02 and 10:03).
      const checkpoints = new ManagerCheckpoints(ds, { every: 1 });
      expect((await checkpoints.run()).times).toEqual([minute(1), minute(2), minute(3)]);
      await ds.query(`DELETE FROM manager_time_checkpoints`);

      // Observed at 10:00, before every projected event: the versions as of 10:02 lack it, so the list folds.
      await plain.append([scaledBy(deploymentObservation({ uid: 'late', resourceVersion: '7', type: 'ADDED', observedAt: minute(0) }), 'late-scaler', 2, '8')]);
      const folded = await managers(minute(2));
      expect(folds).toHaveBeenCalled();
      // The fold has it (its object has no state yet), and not the one observed later.
      expect(folded).toContain('late-scaler');
      expect(folded).not.toContain('later-scaler');
      // As of its sequence the same (the list folds: an event up to it waits).
      const [{ seq }] = await ds.query(`SELECT max(seq)::text AS seq FROM events`);
      expect((await queries.managers({ kind: 'seq', seq }, undefined, 100)).items.map((m) => m.manager)).toEqual(expect.arrayContaining(['late-scaler', 'later-scaler']));
      // Nor is a time checkpoint built after it until it is projected.
      expect((await checkpoints.run()).times).toEqual([]);

      // Once projected, the versions answer, with it.
      await projectorOn(ds).catchUp({ waitForHeldBackMs: 60_000 });
      folds.mockClear();
      const projected = await managers(minute(2));
      expect(folds).not.toHaveBeenCalled();
      expect(projected).toEqual(folded);
      expect((await checkpoints.run()).times).toEqual([minute(0), minute(1), minute(2), minute(3), minute(5)]);
      expect(await managers(minute(2))).toEqual(projected);
    } finally {
      folds.mockRestore();
    }
  });
});
