import type { DataSource } from 'typeorm';
import type { Observation } from '../../../common/src/index.js';
import { loadConfig } from '../../../config/src/index.js';
import type { AccessScope, AsOf, OwnershipProjector, ScopedView } from '../../../audit/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, scaledBy, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import type { EventAppender } from '../events/event-appender.js';
import { foldingAppender, projectorOn } from '../testing/worker-use-cases.js';
import { OwnershipQueries } from './ownership-queries.js';

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

  /** `managers` and `findings` now, as of every event's sequence and time, as one view and the other count them. */
  const expectSameAggregates = async (allowed: readonly AccessScope[], label: string): Promise<void> => {
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

    // A scope first tracked after the caller's scopes were read is hidden too.
    await appender.append([configMap('cm-d', 'd', '105', 'cm-writer'), deploymentObservation({ uid: 'd-d-0', namespace: 'd', resourceVersion: '106' })]);
    await projector.catchUp({ waitForHeldBackMs: 60_000 });
    const everyManager = (await queries.managers(undefined, undefined, 100)).items;
    expect(everyManager.find((m) => m.manager === 'cm-writer')?.objectCount).toBe(3);
    const readBefore = (await queries.managers(undefined, undefined, 100, { allowed: tracked, fromTotals: true })).items;
    expect(readBefore.find((m) => m.manager === 'cm-writer')?.objectCount).toBe(2);
    await expectSameAggregates(tracked, 'every scope read before namespace d');
  });
});
