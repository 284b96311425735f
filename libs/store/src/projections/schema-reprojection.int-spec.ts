import type { DataSource } from 'typeorm';
import type { Observation } from '../../../common/src/index.js';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, type TestDatabase } from '../../../testing/src/index.js';
import { simulateApply } from '../../../audit/src/index.js';
import { widgetDocument as widgetFixture, widgetItemEntry } from '../../../audit/src/testing/widget-crd.fixture.js';
import { createDataSource } from '../database/database.js';
import { EventAppender } from '../events/event-appender.js';
import { ApiSchemaRepository } from '../schemas/api-schema.repository.js';
import type { OwnershipProjector } from '../../../audit/src/index.js';
import { foldingAppender, projectorOn } from '../testing/worker-use-cases.js';
import { OwnershipQueries } from './ownership-queries.js';
import { StoredSchemaCatalog } from '../schemas/stored-schema-catalog.js';

const widgetDocument = widgetFixture();
const entry = widgetItemEntry;

/** team-a's manifest: its one item, resized. */
const teamAApplies = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: { items: [{ name: 'a', size: 3 }] } };

const widget = (resourceVersion: string, sizeB: number): Observation => ({
  cluster: 'east',
  resource: { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget' },
  type: 'MODIFIED',
  source: 'watch',
  observedAt: new Date().toISOString(),
  object: {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'default', uid: 'widget-1', resourceVersion, managedFields: [entry('team-a', 'a'), entry('team-b', 'b')] },
    spec: { items: [{ name: 'a', size: 1 }, { name: 'b', size: sizeB }] },
  },
});

describe("custom resources answered with the cluster's stored schema (Postgres)", () => {
  let db: TestDatabase;
  let ds: DataSource;
  let appender: EventAppender;
  let projector: OwnershipProjector;
  let queries: OwnershipQueries;

  beforeAll(async () => {
    db = await createTestDatabase('schemas');
    ds = await createDataSource(db.url, 6).initialize();
    appender = foldingAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture);
    projector = projectorOn(ds);
    queries = new OwnershipQueries(ds, new StoredSchemaCatalog(ds));
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const objectId = async () => (await ds.query(`SELECT id::text AS id FROM objects WHERE uid = 'widget-1'`))[0].id as string;
  const owners = async (path: string, at?: string) =>
    (await queries.fieldOwners(await objectId(), path, at ? { kind: 'seq', seq: at } : undefined)).owners.map((o) => o.manager);

  it('projects with the deduced schema while none is stored, again per item once the CRD schema arrives, and follows it afterwards', async () => {
    await appender.append([widget('1', 2)]);
    expect(await projector.catchUp({ waitForHeldBackMs: 60_000 })).toMatchObject({ events: 1, reprojected: 0 });
    const id = await objectId();
    const before = await queries.ownership(id);
    expect(before.state.schema).toEqual({ source: 'deduced', typeName: null, digest: 'deduced' });
    // Deduced, the list is atomic: team-a applying its one item replaces the whole list, and team-b's item is gone.
    const applyA = async () =>
      simulateApply({ live: (await queries.state(id)).object, config: teamAApplies, manager: 'team-a', cluster: 'east', schema: await queries.schemaResolver() });
    const replaced = await applyA();
    expect(replaced.conflicts).toEqual([]);
    expect((replaced.result!.object as { spec: unknown }).spec).toEqual({ items: [{ name: 'a', size: 3 }] });
    expect(replaced.schema).toMatchObject({ source: 'deduced' });

    await new ApiSchemaRepository(ds).put('east', [{ path: 'apis/example.com/v1', format: 'openapi-v3', document: widgetDocument }], new Date(), ['apis/example.com/v1']);
    const progress: number[] = [];
    const r = await projector.catchUp({ waitForHeldBackMs: 60_000, onReproject: (done) => progress.push(done) });
    expect(r).toMatchObject({ events: 0, reprojected: 1 });
    expect(progress).toEqual([1]);
    const after = await queries.ownership(id);
    expect(after.state.schema).toMatchObject({ source: 'cluster', typeName: 'com.example.v1.Widget' });
    expect(await owners('.spec.items[name="a"].size')).toEqual(['team-a']);
    expect(await owners('.spec.items[name="b"].size')).toEqual(['team-b']);
    // Per item now: team-a's apply merges into its own item and leaves team-b's.
    const merged = await applyA();
    expect(merged.conflicts).toEqual([]);
    expect((merged.result!.object as { spec: unknown }).spec).toEqual({ items: [{ name: 'a', size: 3 }, { name: 'b', size: 2 }] });
    expect(merged.schema).toMatchObject({ source: 'cluster' });
    const history = await queries.fieldHistory(id, '.spec.items[name="b"].size');
    expect(history.schema.source).toBe('cluster');
    expect(history.transitions.map((t) => [t.type, t.manager])).toEqual([['acquired', 'team-b']]);

    // Nothing left to re-project; a new event is folded with the cluster's schema, and at= reads agree.
    await appender.append([widget('2', 5)]);
    expect(await projector.catchUp({ waitForHeldBackMs: 60_000 })).toMatchObject({ events: 1, reprojected: 0 });
    const firstSeq = (await ds.query(`SELECT min(seq)::text AS seq FROM events`))[0].seq as string;
    expect(await owners('.spec.items[name="b"].size', firstSeq)).toEqual(['team-b']);
    expect((await queries.fieldOwners(id, '.spec.items[name="b"].size', { kind: 'seq', seq: firstSeq })).schema.source).toBe('cluster');
    // A fresh projector (a restarted worker) checks again and finds nothing to do.
    expect(await projectorOn(ds).catchUp({ waitForHeldBackMs: 60_000 })).toMatchObject({ reprojected: 0 });
    // States point at their choice; each choice is stored once (deduced, then the cluster's).
    const choices: { source: string; type_name: string; states: number }[] = await ds.query(
      `SELECT c.source, c.type_name, count(s.object_id)::integer AS states
       FROM schema_choices c LEFT JOIN ownership_states s ON s.schema_id = c.id GROUP BY c.id ORDER BY c.id`,
    );
    expect(choices).toEqual([
      { source: 'deduced', type_name: '', states: 0 },
      { source: 'cluster', type_name: 'com.example.v1.Widget', states: 1 },
    ]);
  });
});
