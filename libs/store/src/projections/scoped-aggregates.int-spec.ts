import { jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { Observation } from '../../../common/src/index.js';
import { loadConfig } from '../../../config/src/index.js';
import { ManagerTotals, findings as findingsOf, managerFields, type AccessScope, type AsOf, type ManagerFieldsFilter, type ObjectOwnershipState, type OwnershipProjector, type ScopedView } from '../../../audit/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, scaledBy, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import type { EventAppender } from '../events/event-appender.js';
import { foldingAppender, projectorOn } from '../testing/worker-use-cases.js';
import { encodeCursor } from './cursor.util.js';
import { OwnershipQueries } from './ownership-queries.js';
import { STATE_COLUMNS, stateFromRow, type StateRow } from './state-row.js';

/** A ConfigMap whose one data key `manager` wrote. */
const configMap = (uid: string, namespace: string, resourceVersion: string, manager: string): Observation => ({
  cluster: 'test-cluster', resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, type: 'MODIFIED', source: 'watch', observedAt: new Date().toISOString(),
  object: {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: {
      uid, name: uid, namespace, resourceVersion,
      managedFields: [{ manager, operation: 'Update', apiVersion: 'v1', time: '2026-11-21T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:k': {} } } }],
    },
    data: { k: resourceVersion },
  },
});

describe('aggregates for a caller who sees some scopes: every object\'s totals less the hidden objects, as counting the seen ones (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let appender: EventAppender;
  let projector: OwnershipProjector;
  let queries: OwnershipQueries;

  beforeAll(async () => {
    db = await createTestDatabase('scoped_aggregates');
    ds = await createDataSource(db.url, 4).initialize();
    appender = foldingAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture);
    projector = projectorOn(ds);
    queries = new OwnershipQueries(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  /** A manager's fields read page by page (`limit` each) through the cursors: the items, and how many pages. */
  const everyManagerFieldsPage = async (manager: string, filter: ManagerFieldsFilter, at: AsOf | undefined, limit: number, allowed?: readonly AccessScope[]) => {
    const items: unknown[] = [];
    let [cursor, pages]: [string | undefined, number] = [undefined, 0];
    do {
      const page = await queries.managerFields(manager, filter, at, cursor, limit, allowed);
      expect(page.items.length).toBeLessThanOrEqual(limit);
      items.push(...page.items);
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    return { items, pages };
  };

  /** The live states of the objects in `allowed`'s scopes (the audit lib's answers over them are the reference). */
  const statesIn = async (allowed: readonly AccessScope[]) => {
    const rows: (StateRow & { resource: string })[] = await ds.query(
      `SELECT ${STATE_COLUMNS}, o.resource FROM ownership_states s JOIN objects o ON o.id::text = s.object_id WHERE s.generation = (SELECT active FROM projection_generations)`,
    );
    return rows
      .filter((r) => allowed.some((a) => a.cluster === r.cluster && a.group === r.api_group && a.resource === r.resource && a.namespace === (r.namespace ?? '')))
      .map(stateFromRow);
  };

  /**
   * `managers` and `findings` now, as of every event's sequence and time, as one view and the other
   * count them; now, also as the audit lib sums and lists the states of the allowed objects.
   */
  const expectSameAggregates = async (allowed: readonly AccessScope[], label: string): Promise<void> => {
    const seen = await statesIn(allowed);
    const totals = new ManagerTotals();
    for (const st of seen) totals.add(st);
    for (const fromTotals of [true, false]) {
      expect([label, fromTotals, (await queries.managers(undefined, undefined, 100, { allowed, fromTotals })).items]).toEqual([label, fromTotals, totals.summaries()]);
      expect([label, fromTotals, (await queries.findings({}, undefined, 100, { allowed, fromTotals })).items]).toEqual([label, fromTotals, findingsOf(seen)]);
    }
    const events: { seq: string; at: Date }[] = await ds.query(`SELECT seq::text AS seq, observed_at AS at FROM events ORDER BY seq`);
    const moments: (AsOf | undefined)[] = [undefined, ...events.flatMap((e): AsOf[] => [{ kind: 'seq', seq: e.seq }, { kind: 'time', time: e.at.toISOString(), ms: e.at.getTime() }])];
    for (const at of moments) {
      const counted = (view: ScopedView) => queries.managers(at, undefined, 100, view).then((p) => p.items);
      expect([label, at, await counted({ allowed, fromTotals: true })]).toEqual([label, at, await counted({ allowed, fromTotals: false })]);
      const listed = (view: ScopedView) => queries.findings({ at }, undefined, 100, view).then((p) => p.items);
      expect([label, at, await listed({ allowed, fromTotals: true })]).toEqual([label, at, await listed({ allowed, fromTotals: false })]);
    }
  };

  it('gives the same managers and findings now and as of every event, whichever scopes are hidden, a scope tracked since included', async () => {
    // The first Deployment of each namespace: its applier owns .spec.replicas too (co-owned once scaled: a finding).
    const deployments = ['a', 'b', 'c'].flatMap((ns, i) => [0, 1].map((j) => deploymentObservation({ uid: `d-${ns}-${j}`, namespace: ns, resourceVersion: String(10 * i + j + 1), applierOwnsReplicas: j === 0 })));
    await appender.append(deployments);
    await appender.append([scaledBy(deployments[0]!, 'hpa', 5, '100'), scaledBy(deployments[3]!, 'hpa', 6, '101'), configMap('cm-a', 'a', '102', 'cm-writer')]);
    await appender.append([configMap('cm-b', 'b', '103', 'cm-writer'), scaledBy(deployments[5]!, 'kubectl-scale', 2, '104')]);
    await projector.catchUp({ waitForHeldBackMs: 60_000 });

    const tracked = await queries.accessScopes();
    expect(tracked.map((s) => `${s.group}/${s.resource}/${s.namespace}`)).toEqual(['/configmaps/a', '/configmaps/b', 'apps/deployments/a', 'apps/deployments/b', 'apps/deployments/c']);
    const hiding = (...hidden: string[]) => tracked.filter((s) => !hidden.includes(`${s.resource}/${s.namespace}`));
    await expectSameAggregates(tracked, 'every scope');
    await expectSameAggregates(hiding('configmaps/b'), 'one ConfigMap hidden');
    await expectSameAggregates(hiding('deployments/a', 'configmaps/a'), 'namespace a hidden');
    await expectSameAggregates(hiding('deployments/a', 'deployments/b', 'deployments/c'), 'every Deployment hidden');

    // Counted from the totals less the hidden objects: the hidden ConfigMap's manager counts one object, not two.
    const hpaAndWriter = (await queries.managers(undefined, undefined, 100, { allowed: hiding('configmaps/b'), fromTotals: true })).items;
    expect(hpaAndWriter.find((m) => m.manager === 'cm-writer')?.objectCount).toBe(1);
    expect(hpaAndWriter.find((m) => m.manager === 'hpa')?.objectCount).toBe(2);
    const findingsIn = async (view?: ScopedView) => new Set((await queries.findings({}, undefined, 100, view)).items.map((f) => f.namespace));
    expect(await findingsIn()).toEqual(new Set(['a', 'b', 'c']));
    expect(await findingsIn({ allowed: hiding('deployments/a'), fromTotals: true })).toEqual(new Set(['b', 'c']));

    // An object tracked after the caller's scopes were read, in a scope it may not see: not counted.
    const allowedBefore = hiding('deployments/c');
    await appender.append([scaledBy(deploymentObservation({ uid: 'd-c-late', namespace: 'c', resourceVersion: '110' }), 'hidden-operator', 7, '111')]);
    await projector.catchUp({ waitForHeldBackMs: 60_000 });
    const fromTotals = { allowed: allowedBefore, fromTotals: true };
    expect((await queries.managers(undefined, undefined, 100)).items.map((m) => m.manager)).toContain('hidden-operator');
    expect((await queries.managers(undefined, undefined, 100, fromTotals)).items.map((m) => m.manager)).not.toContain('hidden-operator');
    expect((await queries.findings({}, undefined, 100, fromTotals)).items.map((f) => f.namespace)).not.toContain('c');
    await expectSameAggregates(allowedBefore, 'namespace c hidden, an object tracked there since');

    // A scope first tracked after the caller's scopes were read is hidden too.
    await appender.append([configMap('cm-d', 'd', '105', 'cm-writer'), deploymentObservation({ uid: 'd-d-0', namespace: 'd', resourceVersion: '106' })]);
    await projector.catchUp({ waitForHeldBackMs: 60_000 });
    const everyManager = (await queries.managers(undefined, undefined, 100)).items;
    expect(everyManager.find((m) => m.manager === 'cm-writer')?.objectCount).toBe(3);
    const readBefore = (await queries.managers(undefined, undefined, 100, { allowed: tracked, fromTotals: true })).items;
    expect(readBefore.find((m) => m.manager === 'cm-writer')?.objectCount).toBe(2);
    await expectSameAggregates(tracked, 'every scope read before namespace d');
  });

  it('lists a manager\'s fields a page at a time as the whole list gives them, page for page, filtered and scoped', async () => {
    const states = (await ds.query(`SELECT ${STATE_COLUMNS} FROM ownership_states s WHERE s.generation = (SELECT active FROM projection_generations)`) as StateRow[]).map(stateFromRow);
    const tracked = await queries.accessScopes();
    const inScope = (allowed: readonly AccessScope[]) => states.filter((st) => allowed.some((a) => a.group === st.group && a.namespace === (st.namespace ?? '')));
    // Every page comes from the page read (none falls back to decoding the whole list).
    const paged = jest.spyOn(queries as unknown as { managerFieldsByKey: () => Promise<unknown> }, 'managerFieldsByKey');
    let pages = 0;
    for (const manager of ['hpa', 'cm-writer', 'kubectl-scale', 'nobody']) {
      for (const filter of [
        {}, { namespace: 'a' }, { kind: 'ConfigMap' }, { cluster: 'test-cluster', kind: 'Deployment', namespace: 'c' },
        { group: '' }, { group: 'apps', version: 'v1' }, { version: 'v1', name: 'cm-a' }, { name: 'no-such-object' },
      ] as ManagerFieldsFilter[]) {
        for (const allowed of [undefined, tracked.filter((t) => t.namespace !== 'b')]) {
          const whole = managerFields(allowed ? inScope(allowed) : states, manager, filter);
          for (const limit of [1, 2, 3, 100]) {
            const { items, pages: read } = await everyManagerFieldsPage(manager, filter, undefined, limit, allowed);
            pages += read;
            expect([manager, filter, limit, JSON.stringify(items)]).toEqual([manager, filter, limit, JSON.stringify(whole)]);
          }
        }
      }
    }
    expect(pages).toBeGreaterThan(100);
    expect(paged).toHaveBeenCalledTimes(pages);
    // A cursor past any list (forged): an empty last page, as slicing the whole list gave, not a database error.
    expect(await queries.managerFields('hpa', {}, undefined, encodeCursor('manager-fields', 1e300), 10)).toEqual({ items: [], nextCursor: null });
    // A cursor of the whole list (an offset, as pages were cut before they were keyed) goes on over the whole list.
    const wholeHpa = managerFields(states, 'hpa');
    expect(wholeHpa.length).toBe(2);
    expect(await queries.managerFields('hpa', {}, undefined, encodeCursor('manager-fields', 1), 1)).toEqual({ items: [wholeHpa[1]], nextCursor: null });
    expect(await queries.managerFields('hpa', {}, undefined, encodeCursor('manager-fields', 0), 1)).toEqual({ items: [wholeHpa[0]], nextCursor: encodeCursor('manager-fields', 1) });
    for (const r of paged.mock.results) expect(await r.value).toBeDefined();
    paged.mockRestore();
  });

  it('lists a manager\'s fields as of every event from the versions as folding every object then gives them, page for page, filtered and scoped', async () => {
    const ids: string[] = (await ds.query(`SELECT object_id FROM ownership_states WHERE generation = (SELECT active FROM projection_generations) ORDER BY object_id`))
      .map((r: { object_id: string }) => r.object_id);
    const tracked = await queries.accessScopes();
    const events: { seq: string; at: Date }[] = await ds.query(`SELECT seq::text AS seq, observed_at AS at FROM events ORDER BY seq`);
    const moments = events.flatMap((e): AsOf[] => [{ kind: 'seq', seq: e.seq }, { kind: 'time', time: e.at.toISOString(), ms: e.at.getTime() }]);
    // Read from the versions, never by folding every object.
    const folded = jest.spyOn(queries as unknown as { statesAt: () => Promise<unknown> }, 'statesAt');
    const keyed = jest.spyOn(queries as unknown as { managerFieldsByKey: () => Promise<unknown> }, 'managerFieldsByKey');
    let compared = 0;
    for (const at of moments.filter((_, i) => i % 3 === 0 || i >= moments.length - 2)) {
      // Every object's state then, folded from its events (none before its first event).
      const then: ObjectOwnershipState[] = [];
      for (const id of ids) then.push(...(await queries.state(id, at).then((st) => [st], () => [])));
      for (const manager of ['hpa', 'cm-writer', 'kubectl-scale']) {
        for (const filter of [{}, { namespace: 'a' }, { kind: 'ConfigMap' }, { group: 'apps', version: 'v1' }, { version: 'v1', name: 'cm-a' }] as ManagerFieldsFilter[]) {
          for (const allowed of [undefined, tracked.filter((t) => t.namespace !== 'b')]) {
            const seen = allowed ? then.filter((st) => allowed.some((a) => a.group === st.group && a.namespace === (st.namespace ?? ''))) : then;
            const whole = managerFields(seen, manager, filter);
            for (const limit of [1, 3, 100]) {
              const { items } = await everyManagerFieldsPage(manager, filter, at, limit, allowed);
              expect([manager, at, filter, limit, JSON.stringify(items)]).toEqual([manager, at, filter, limit, JSON.stringify(whole)]);
              compared += whole.length;
            }
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100);

    // An object whose events up to the moment retention dropped: left out (as the objects list leaves it out), not a 404.
    const [first] = await ds.query(
      `SELECT object_id::text AS id, (array_agg(seq::text ORDER BY seq))[1] AS first, (array_agg(seq::text ORDER BY seq))[2] AS second
       FROM events GROUP BY object_id HAVING count(*) > 1 ORDER BY object_id LIMIT 1`,
    );
    const between: AsOf = { kind: 'seq', seq: String(BigInt(first.second) - 1n) };
    const owner = (await queries.state(first.id, between)).fields[0]!.owners[0]!.manager;
    const listed = async () => (await everyManagerFieldsPage(owner, {}, between, 100)).items.map((i) => (i as { objectId: string }).objectId);
    expect(await listed()).toContain(first.id);
    const [dropped] = await ds.query(`SELECT * FROM events WHERE seq = $1`, [first.first]);
    await ds.query(`DELETE FROM events WHERE seq = $1`, [first.first]);
    try {
      expect(await listed()).not.toContain(first.id);
      expect((await queries.listObjects({ manager: owner }, between, undefined, 100)).items.map((o) => o.id)).not.toContain(first.id);
    } finally {
      await ds.query(`INSERT INTO events SELECT * FROM json_populate_record(NULL::events, $1::json)`, [JSON.stringify(dropped)]);
    }
    expect(await listed()).toContain(first.id);
    expect(folded).not.toHaveBeenCalled();
    expect(keyed).toHaveBeenCalled();
    folded.mockRestore();
    keyed.mockRestore();
  });
});

