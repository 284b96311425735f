import type { DataSource } from 'typeorm';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, scaledBy, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import type { EventAppender } from '../events/event-appender.js';
import { foldingAppender } from '../testing/worker-use-cases.js';

describe('an object\'s later events update its state in place (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let appender: EventAppender;

  beforeAll(async () => {
    db = await createTestDatabase('state_updates_in_place');
    // One connection: the appends run on the backend whose statistics the test flushes and reads.
    ds = await createDataSource(db.url, 1).initialize();
    appender = foldingAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  /** Rows of ownership_states updated, and of them updated in place (HOT), in this database (this backend's counts flushed first). */
  const counts = async (): Promise<{ updated: number; hot: number }> => {
    await ds.query(`SELECT pg_stat_force_next_flush()`);
    const [row] = await ds.query(`SELECT n_tup_upd::int AS updated, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables WHERE relname = 'ownership_states'`);
    return row;
  };
  /** The heap pages the states' rows are on. */
  const pages = () => ds.query(`SELECT count(DISTINCT (ctid::text::point)[0])::int AS pages FROM ownership_states`);

  it('changes no index of ownership_states: its updates are HOT where the page has room', async () => {
    const first = Array.from({ length: 2 }, (_, i) => deploymentObservation({ uid: `u${i}`, name: `d${i}`, resourceVersion: '1' }));
    await appender.append(first);
    // What the assertion below stands on: the 2 states share one page with room for all three versions of each (a row
    // holds its document compressed, inline: about 950 bytes here), so no update depends on Postgres pruning the page first
    // (which waits until no snapshot can see the old rows); no autovacuum or analyze runs meanwhile.
    await ds.query(`ALTER TABLE ownership_states SET (autovacuum_enabled = off)`);
    expect(await pages()).toEqual([{ pages: 1 }]);
    const rounds = [await counts()];
    // Two more events per object, one object per batch as under churn.
    for (const o of first) await appender.append([scaledBy(o, 'hpa', 3, '2')]);
    rounds.push(await counts());
    for (const o of first) await appender.append([scaledBy(scaledBy(o, 'hpa', 3, '2'), 'kubectl-scale', 4, '3')]);
    rounds.push(await counts());
    const changes = rounds.slice(1).map((r, k) => ({ updated: r.updated - rounds[k]!.updated, hot: r.hot - rounds[k]!.hot }));
    // (A page without room sends the new row elsewhere, as before.)
    expect(changes).toEqual([
      { updated: 2, hot: 2 },
      { updated: 2, hot: 2 },
    ]);
    expect(await pages()).toEqual([{ pages: 1 }]);
    // The generated flags follow the columns they stand for.
    expect(await ds.query(`SELECT count(*)::int AS n FROM ownership_states WHERE versions_behind OR out_of_time_order`)).toEqual([{ n: 0 }]);
    await ds.query(`UPDATE ownership_states SET versions_through = NULL, ordered_through = first_seq WHERE object_id = (SELECT min(object_id) FROM ownership_states)`);
    expect(await ds.query(`SELECT count(*)::int AS behind, count(*) FILTER (WHERE out_of_time_order)::int AS unordered FROM ownership_states WHERE versions_behind`)).toEqual([
      { behind: 1, unordered: 1 },
    ]);
  });
});
