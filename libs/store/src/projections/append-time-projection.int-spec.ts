import type { DataSource } from 'typeorm';
import type { ManagedFieldsEntry, Observation } from '../../../common/src/index.js';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, scaledBy, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import { EventAppender } from '../events/event-appender.js';
import { PostgresOwnershipProjectionStore } from './ownership-projection.store.js';
import { OwnershipProjector, ProjectionConflictError, fieldHistory, foldObjectOwnership, type ProjectionTables } from '../../../audit/src/index.js';
import { PostgresProjectionLog } from '../events/postgres-projection-log.js';
import { StoredSchemaCatalog } from '../schemas/stored-schema-catalog.js';
import { PostgresProjectionTables } from './postgres-projection-tables.js';
import { EventReader } from '../events/event-reader.js';
import { ObservedEventLoader } from '../events/observed-event.loader.js';
import { foldingAppender, projectorOn } from '../testing/worker-use-cases.js';
import { OwnershipQueries } from './ownership-queries.js';
import { decompressStateDocument } from './state-document.codec.js';

describe('projection at append: an ingest batch folds what it stores (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let appender: EventAppender;
  let projector: OwnershipProjector;
  const capture = () => loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture;

  /** Every projection row of a generation, as stored (JSON text, so key order counts). */
  const projection = async (generation: number) => ({
    states: await ds.query(
      `SELECT object_id, cluster, uid, api_group, api_version, kind, namespace, name, deleted, first_seq, first_at, last_seq, last_at, state::text, state_compressed, schema_id
       FROM ownership_states WHERE generation = $1 ORDER BY object_id`,
      [generation],
    ),
    versions: await ds.query(`SELECT object_id, seq, deleted, fold_required, fields::text FROM ownership_versions WHERE generation = $1 ORDER BY object_id, seq`, [generation]),
    transitions: await ds.query(`SELECT object_id, seq, ordinal, at, type, path, manager, transition::text FROM field_transitions WHERE generation = $1 ORDER BY object_id, seq, ordinal`, [generation]),
    managers: await ds.query(`SELECT manager, object_id, cluster, kind, namespace, field_count FROM manager_objects WHERE generation = $1 ORDER BY manager, object_id`, [generation]),
    findings: await ds.query(`SELECT object_id, cluster, findings::text FROM object_findings WHERE generation = $1 ORDER BY object_id`, [generation]),
    findingsVersions: await ds.query(`SELECT object_id, seq, until_seq, cluster, findings::text FROM findings_versions WHERE generation = $1 ORDER BY object_id, seq`, [generation]),
    managerVersions: await ds.query(
      `SELECT object_id, manager, seq, until_seq, cluster, field_count, identities::text, identity_field_count FROM manager_objects_versions WHERE generation = $1 ORDER BY object_id, manager, seq`,
      [generation],
    ),
  });
  const active = async (): Promise<number> => (await ds.query(`SELECT active FROM projection_generations`))[0].active;
  /** `objects?manager=` now and as of the last event, and `findings?type=`, answer with `id` owned by `manager` (they read the stored JSON in SQL). */
  const expectFiltersAnswer = async (id: string, manager: string): Promise<void> => {
    const queries = new OwnershipQueries(ds);
    const [{ seq }] = await ds.query(`SELECT max(seq)::text AS seq FROM events`);
    for (const at of [undefined, { kind: 'seq' as const, seq }]) {
      expect((await queries.listObjects({ manager }, at, undefined, 1000)).items.map((i) => i.id)).toContain(id);
    }
    await expect(queries.findings({ types: ['recently-forced'], since: { kind: 'seq', seq: '1' } }, undefined, 1000)).resolves.toBeDefined();
  };
  /** `GET /v1/objects/{id}/transitions` (newest first) as folding the object's stored events gives them, JSON text for JSON text. */
  const expectTransitionsAsTheFold = async (id: string): Promise<void> => {
    const { transitions } = foldObjectOwnership(await new ObservedEventLoader(ds).load(await new EventReader(ds).objectHistory(id)));
    const listed = (await new OwnershipQueries(ds).transitions(id, undefined, undefined, 1000)).items;
    expect(JSON.stringify(listed)).toBe(JSON.stringify([...transitions].reverse()));
  };
  const stateXmins = async () => ds.query(`SELECT object_id, xmin::text AS xmin FROM ownership_states ORDER BY object_id`);

  beforeAll(async () => {
    db = await createTestDatabase('append_projection');
    ds = await createDataSource(db.url, 6).initialize();
    appender = foldingAppender(ds, capture());
    projector = projectorOn(ds, { pageSize: 3 });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('stores the states with the events, equal byte for byte to a replay; the projector then passes over them', async () => {
    const a = deploymentObservation({ uid: 'a', resourceVersion: '1' });
    const b = deploymentObservation({ uid: 'b', resourceVersion: '1' });
    const first = await appender.append([a, b, scaledBy(a, 'hpa', 5, '2')]);
    expect(first.projection).toMatchObject({ folded: 2, left: 0, error: null });
    const second = await appender.append([scaledBy(b, 'hpa', 4, '2'), { ...scaledBy(a, 'kubectl-scale', 7, '3'), observedAt: '2026-11-21T10:06:00.123456789Z' }]);
    expect(second.projection).toMatchObject({ folded: 2, left: 0, error: null });
    const gone = scaledBy(b, 'hpa', 4, '3');
    await appender.append([{ ...gone, type: 'DELETED' }]);

    const live = await projection(await active());
    expect(live.states.map((s: { last_seq: string }) => s.last_seq)).toHaveLength(2);
    expect(live.transitions.length).toBeGreaterThan(0);
    expect(live.managers.map((m: { manager: string }) => m.manager)).toContain('kubectl-scale');

    // The walk reads the log and checkpoints it, and writes no state again.
    const xmins = await stateXmins();
    const walked = await projector.catchUp({ waitForHeldBackMs: 60_000 });
    expect(walked.events).toBe(6);
    expect(await stateXmins()).toEqual(xmins);
    expect(await projector.lag()).toBe(0);

    // Everything projected again from the log, into a fresh generation: the same rows.
    await projector.replay({ kind: 'all' });
    expect(await projection(await active())).toEqual(live);
  });

  it('replays one object of many events a page at a time (by count, and by its bodies\' bytes) to the rows its appends stored; a cluster with pages across objects', async () => {
    /** A projector whose rewrites of objects report the size of each page they fold into `pages`. */
    const pagedProjector = (options: { pageSize?: number; pageBodyBytes?: number }, pages: number[]): OwnershipProjector => {
      const tables = new PostgresProjectionTables(ds);
      const rewriteObjects: ProjectionTables['rewriteObjects'] = (generation, ids, bounds, fold) =>
        tables.rewriteObjects(generation, ids, bounds, (rewrite) => {
          pages.push(rewrite.events.length);
          return fold(rewrite);
        });
      const counting = Object.assign(Object.create(tables) as PostgresProjectionTables, { rewriteObjects });
      return new OwnershipProjector(new PostgresProjectionLog(ds), counting, new StoredSchemaCatalog(ds), options.pageSize, options.pageBodyBytes);
    };
    const long = deploymentObservation({ uid: 'long', resourceVersion: '1' });
    await appender.append([long]);
    const managers = ['hpa', 'kubectl-scale', 'argocd'];
    for (let i = 2; i <= 12; i++) await appender.append([scaledBy(long, managers[i % 3]!, i, String(i))]);
    await appender.append([{ ...scaledBy(long, 'hpa', 12, '13'), type: 'DELETED' }]);
    await projector.catchUp({ waitForHeldBackMs: 60_000 });
    const id: string = (await ds.query(`SELECT id::text AS id FROM objects WHERE uid = 'long'`))[0].id;
    const events = Number((await ds.query(`SELECT count(*) AS n FROM events WHERE object_id = $1`, [id]))[0].n);
    expect(events).toBe(13);
    const live = await projection(await active());

    const byCount: number[] = [];
    expect(await pagedProjector({ pageSize: 5 }, byCount).replay({ kind: 'object', objectId: id })).toMatchObject({ events, objects: 1 });
    expect(byCount).toEqual([5, 5, 3]);
    expect(await projection(await active())).toEqual(live);

    // Every body is larger than one byte: a page of one event each.
    const byBytes: number[] = [];
    expect(await pagedProjector({ pageBodyBytes: 1 }, byBytes).replay({ kind: 'object', objectId: id })).toMatchObject({ events, objects: 1 });
    expect(byBytes).toEqual(Array(events).fill(1));
    expect(await projection(await active())).toEqual(live);

    // Every object of the cluster, in one rewrite: pages of 5 cut inside histories (each page goes on from the one before), and of one event each.
    const [{ objects, all }]: { objects: number; all: number }[] = await ds.query(
      `SELECT count(DISTINCT o.id)::integer AS objects, count(*)::integer AS all FROM objects o JOIN clusters c ON c.id = o.cluster_id JOIN events e ON e.object_id = o.id WHERE c.name = 'test-cluster'`,
    );
    expect(objects).toBeGreaterThanOrEqual(3);
    for (const [options, expected] of [[{ pageSize: 5 }, [...Array(Math.floor(all / 5)).fill(5), ...(all % 5 ? [all % 5] : [])]], [{ pageBodyBytes: 1 }, Array(all).fill(1)]] as const) {
      const sizes: number[] = [];
      expect(await pagedProjector(options, sizes).replay({ kind: 'cluster', cluster: 'test-cluster' })).toMatchObject({ events: all, objects });
      expect(sizes).toEqual(expected);
      expect(await projection(await active())).toEqual(live);
    }
  });

  it('leaves an object whose state is behind to the projector, which folds it', async () => {
    const c = deploymentObservation({ uid: 'c', resourceVersion: '1' });
    // An append that does not fold (as one from before this version did): c has an event and no state.
    await new EventAppender(ds, capture(), null).append([c]);
    const r = await appender.append([scaledBy(c, 'hpa', 2, '2')]);
    expect(r.projection).toMatchObject({ folded: 0, left: 1, error: null });
    const id: string = (await ds.query(`SELECT id::text AS id FROM objects WHERE uid = 'c'`))[0].id;
    const stateOf = async () => (await ds.query(`SELECT last_seq::text AS seq FROM ownership_states WHERE object_id = $1 AND generation = $2`, [id, await active()]))[0]?.seq;
    expect(await stateOf()).toBeUndefined();

    await projector.catchUp({ waitForHeldBackMs: 60_000 });
    const last: string = (await ds.query(`SELECT max(seq)::text AS seq FROM events WHERE object_id = $1`, [id]))[0].seq;
    expect(await stateOf()).toBe(last);
    // Caught up, the object folds at append again.
    expect((await appender.append([scaledBy(c, 'hpa', 3, '3')])).projection).toMatchObject({ folded: 1, left: 0 });

    const live = await projection(await active());
    await projector.replay({ kind: 'all' });
    expect(await projection(await active())).toEqual(live);
  });

  it('folds an object observed under another API group with the group its row keeps, as a replay does', async () => {
    const f = deploymentObservation({ uid: 'f', resourceVersion: '1' });
    await appender.append([f]);
    // The same object served by an older group (an Ingress moving between groups does this): the row keeps the first.
    const other: Observation = {
      ...scaledBy(f, 'hpa', 2, '2'),
      resource: { group: 'extensions', version: 'v1beta1', resource: 'deployments', kind: 'Deployment' },
    };
    expect((await appender.append([{ ...other, object: { ...other.object, apiVersion: 'extensions/v1beta1' } }])).projection).toMatchObject({ folded: 1 });
    const live = await projection(await active());
    expect(live.states.find((st: { uid: string }) => st.uid === 'f')).toMatchObject({ api_group: 'apps' });
    await projector.catchUp({ waitForHeldBackMs: 60_000 });
    await projector.replay({ kind: 'all' });
    expect(await projection(await active())).toEqual(live);
  });

  it('folds, walks past, replays and answers an object whose values hold U+0000, which Postgres text cannot hold', async () => {
    // Kubernetes allows any string in an annotation's value; Postgres decodes every string of a
    // recordset's JSON to text, which refused this one and stopped the projector at its event.
    const withValue = (o: Observation, value: string): Observation => {
      const metadata = o.object.metadata as unknown as { annotations: Record<string, string> };
      return { ...o, object: { ...o.object, metadata: { ...o.object.metadata, annotations: { ...metadata.annotations, owner: value } } } };
    };
    const n = deploymentObservation({ uid: 'nul', resourceVersion: '1' });
    expect((await appender.append([withValue(n, 'a\u0000b')])).projection).toMatchObject({ folded: 1, left: 0, error: null });
    // The second event's snapshot patch holds the escape too; the projector walks past both.
    expect((await appender.append([withValue(scaledBy(n, 'hpa', 4, '2'), '\u0000c')])).projection).toMatchObject({ folded: 1, left: 0, error: null });
    expect(await projector.catchUp({ waitForHeldBackMs: 60_000 })).toMatchObject({ events: 2 });
    const id: string = (await ds.query(`SELECT id::text AS id FROM objects WHERE uid = 'nul'`))[0].id;
    const [{ state, state_compressed }] = await ds.query(`SELECT state::text AS state, state_compressed FROM ownership_states WHERE object_id = $1 AND generation = $2`, [id, await active()]);
    expect(state).toBeNull();
    expect(JSON.stringify(decompressStateDocument(state_compressed))).toContain('"owner":"\\u0000c"');

    const history = await new OwnershipQueries(ds).fieldHistory(id, '.metadata.annotations.owner');
    expect(history.values.map((v) => v.value)).toEqual(['a\u0000b', '\u0000c']);
    const live = await projection(await active());
    await projector.replay({ kind: 'all' });
    expect(await projection(await active())).toEqual(live);
  });

  it('folds, walks past and replays a custom resource whose map key holds U+0000; its transitions on that key are stored exactly, under a stand-in path', async () => {
    // A free-form map of a custom resource takes any key: a tenant's object like this one stopped the projection for everyone.
    const widget = (resourceVersion: string, entries: ManagedFieldsEntry[], m: Record<string, string>): Observation => ({
      cluster: 'test-cluster', resource: { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget' },
      type: resourceVersion === '1' ? 'ADDED' : 'MODIFIED', source: 'watch', observedAt: new Date().toISOString(),
      object: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { uid: 'nul-key', name: 'nul-key', namespace: 'default', resourceVersion, managedFields: entries }, spec: { m } },
    });
    const entry = (manager: string, keys: string[]): ManagedFieldsEntry => ({
      manager, operation: 'Update', apiVersion: 'example.com/v1', time: '2026-11-21T10:00:00Z', fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:m': Object.fromEntries(keys.map((k) => [`f:${k}`, {}])) } },
    });
    expect((await appender.append([widget('1', [entry('tenant', ['a\u0000b'])], { 'a\u0000b': 'x' })])).projection).toMatchObject({ folded: 1, error: null });
    // Another manager takes the key and adds one more.
    const second = widget('2', [entry('other', ['a\u0000b', 'plain'])], { 'a\u0000b': 'y', plain: 'z' });
    expect((await appender.append([second])).projection).toMatchObject({ folded: 1, error: null });
    expect(await projector.catchUp({ waitForHeldBackMs: 60_000 })).toMatchObject({ events: 2 });

    const id: string = (await ds.query(`SELECT id::text AS id FROM objects WHERE uid = 'nul-key'`))[0].id;
    const generation = await active();
    const stored = await ds.query(`SELECT type, path, fields_v1_path, manager FROM field_transitions WHERE generation = $1 AND object_id = $2 ORDER BY seq, ordinal`, [generation, id]);
    expect(stored).toEqual([
      { type: 'taken', path: '.spec.m.a\uFFFDb', fields_v1_path: 'nul:f:spec.f:m.f:a\uFFFDb', manager: 'other' },
      { type: 'acquired', path: '.spec.m.plain', fields_v1_path: 'f:spec.f:m.f:plain', manager: 'other' },
    ]);
    // The object's list of transitions is the fold's, the key with U+0000 and all.
    await expectTransitionsAsTheFold(id);
    // The versions keep the key, with both owners in turn.
    const versions = await ds.query(`SELECT fields::text AS fields FROM ownership_versions WHERE generation = $1 AND object_id = $2 ORDER BY seq`, [generation, id]);
    expect(versions.map((v: { fields: string }) => v.fields.includes('f:a\\u0000b'))).toEqual([true, true]);
    const history = await new OwnershipQueries(ds).fieldHistory(id, '.spec.m');
    expect(history.values.map((v) => v.value)).toEqual([{ 'a\u0000b': 'x' }, { 'a\u0000b': 'y', plain: 'z' }]);
    // Reads that filter the stored documents in Postgres pass over it, as of now and as of a sequence.
    await expectFiltersAnswer(id, 'other');

    const live = await projection(generation);
    await projector.replay({ kind: 'all' });
    expect(await projection(await active())).toEqual(live);
  });

  it.each([
    ['U+0000', 'nul-manager', 'ev\u0000il', 'ev\u0000il-2'],
    // A real API server makes it U+FFFD, a client of the sandbox can send it; it stopped the projection for everyone too.
    ['a lone surrogate', 'surrogate-manager', 'ev\uD800il', 'ev\uDC00il-2'],
  ])('folds, walks past and replays an object one of whose managers is named with %s; that manager alone is left out of the index; its transitions are stored exactly', async (_, uid, evil, evil2) => {
    // Nothing stops a client from writing such a name into managedFields; it stopped the projection for everyone.
    const configMap = (resourceVersion: string, managers: string[]): Observation => ({
      cluster: 'test-cluster', resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' },
      type: resourceVersion === '1' ? 'ADDED' : 'MODIFIED', source: 'watch', observedAt: new Date().toISOString(),
      object: {
        apiVersion: 'v1', kind: 'ConfigMap', data: { k0: 'a', k1: 'b' },
        metadata: {
          uid, name: uid, namespace: 'default', resourceVersion,
          managedFields: managers.map((manager, i) => ({ manager, operation: 'Update', apiVersion: 'v1', time: '2026-11-21T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { [`f:k${i}`]: {} } } })),
        },
      },
    });
    expect((await appender.append([configMap('1', ['tenant', evil])])).projection).toMatchObject({ folded: 1, error: null });
    // k1 changes hands between the two managers named so; k0 goes from tenant to other.
    expect((await appender.append([configMap('2', ['other', evil2])])).projection).toMatchObject({ folded: 1, error: null });
    expect(await projector.catchUp({ waitForHeldBackMs: 60_000 })).toMatchObject({ events: 2 });

    const id: string = (await ds.query(`SELECT id::text AS id FROM objects WHERE uid = $1`, [uid]))[0].id;
    const generation = await active();
    const index = await ds.query(`SELECT manager FROM manager_objects WHERE generation = $1 AND object_id = $2 ORDER BY manager`, [generation, id]);
    expect(index).toEqual([{ manager: 'other' }]);
    const stored = await ds.query(`SELECT type, path, fields_v1_path, manager FROM field_transitions WHERE generation = $1 AND object_id = $2 ORDER BY seq, ordinal`, [generation, id]);
    expect(stored).toEqual([
      { type: 'taken', path: '.data.k0', fields_v1_path: 'f:data.f:k0', manager: 'other' },
      { type: 'taken', path: '.data.k1', fields_v1_path: 'f:data.f:k1', manager: 'ev\uFFFDil-2' },
    ]);
    await expectTransitionsAsTheFold(id);
    // The path is clean: its history lists the transitions by those managers, as the fold does.
    const events = await new ObservedEventLoader(ds).load(await new EventReader(ds).objectHistory(id));
    expect(JSON.stringify((await new OwnershipQueries(ds).fieldHistory(id, '.data.k1')).transitions)).toBe(JSON.stringify(fieldHistory(events, '.data.k1').transitions));
    expect((await new OwnershipQueries(ds).fieldHistory(id, '.data.k1')).transitions.map((t) => t.manager)).toEqual([evil, evil2]);
    // The versions keep every owner.
    const versions = await ds.query(`SELECT fields::text AS fields FROM ownership_versions WHERE generation = $1 AND object_id = $2 ORDER BY seq`, [generation, id]);
    const escaped = (name: string) => JSON.stringify(name).slice(1, -1);
    expect(versions.map((v: { fields: string }, i: number) => v.fields.includes(`"${escaped([evil, evil2][i]!)}"`))).toEqual([true, true]);
    await expectFiltersAnswer(id, 'other');

    const live = await projection(generation);
    await projector.replay({ kind: 'all' });
    expect(await projection(await active())).toEqual(live);
  });

  it('stores a batch whose fold fails without folding it; the projector folds it', async () => {
    await ds.query(`CREATE FUNCTION refuse_states() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'projection writes refused'; END $$`);
    await ds.query(`CREATE TRIGGER refuse_states BEFORE INSERT OR UPDATE ON ownership_states FOR EACH ROW EXECUTE FUNCTION refuse_states()`);
    let r;
    try {
      r = await appender.append([deploymentObservation({ uid: 'd', resourceVersion: '1' }), deploymentObservation({ uid: 'e', resourceVersion: '1' })]);
    } finally {
      await ds.query(`DROP TRIGGER refuse_states ON ownership_states`);
      await ds.query(`DROP FUNCTION refuse_states()`);
    }
    expect(r.stored).toBe(2);
    expect(r.projection).toMatchObject({ folded: 0, left: 2 });
    expect(String(r.projection!.error)).toContain('projection writes refused');
    const states = () => ds.query(`SELECT o.uid FROM ownership_states s JOIN objects o ON o.id::text = s.object_id WHERE o.uid IN ('d', 'e') ORDER BY 1`);
    expect(await states()).toEqual([]);
    await projector.catchUp({ waitForHeldBackMs: 60_000 });
    expect(await states()).toEqual([{ uid: 'd' }, { uid: 'e' }]);
  });

  it('never writes a state over one stored since it was loaded: the whole batch is rolled back', async () => {
    const generation = await active();
    const id: string = (await ds.query(`SELECT id::text AS id FROM objects WHERE uid = 'a'`))[0].id;
    const store = new PostgresOwnershipProjectionStore(ds, generation, null);
    const state = (await store.load([id])).get(id)!;
    const before = await projection(generation);
    const batch = { states: [state], transitions: [], versions: [], managerIndex: [], managerIndexVersions: [], findings: [], findingsVersions: [], checkpoint: null, outOfTimeOrder: new Set<string>() };
    await expect(store.save({ ...batch, foldedFrom: new Map([[id, '1']]) })).rejects.toBeInstanceOf(ProjectionConflictError);
    await expect(store.save({ ...batch, foldedFrom: new Map([[id, null]]) })).rejects.toBeInstanceOf(ProjectionConflictError);
    expect(await projection(generation)).toEqual(before);
    await store.save({ ...batch, foldedFrom: new Map([[id, state.lastSeq]]) });
    expect(await projection(generation)).toEqual(before);
  });

  it.each([
    ['with no state stored yet', false],
    ['onto a stored state', true],
  ])('projects an object the log gives out of seq order from all its events, as a replay does (%s)', async (_, stored) => {
    // Log order is (xid, seq): a transaction that started first and waited for the object's row
    // commits its event second, with the lower xid and the higher seq. Here two later events' xids
    // are exchanged to make exactly that log, and they are left to the walk (no fold at append).
    const plain = new EventAppender(ds, capture(), null);
    const walker = projectorOn(ds, { pageSize: stored ? 1 : 2 });
    const d = deploymentObservation({ uid: `out-of-order-${stored}`, resourceVersion: '1' });
    const byHpa = scaledBy(d, 'hpa', 3, '2');
    if (stored) {
      // The first event folded at append and walked past: the object's state holds it.
      await appender.append([d]);
      await walker.catchUp({ waitForHeldBackMs: 60_000 });
    } else await plain.append([d]);
    const [second] = (await plain.append([byHpa])).objects;
    const [third] = (await plain.append([{ ...scaledBy(byHpa, 'kubectl-scale', 4, '3'), observedAt: '2026-11-21T10:07:00Z' }])).objects;
    const xids: { seq: string; xid: string }[] = await ds.query(`SELECT seq::text AS seq, xid::text AS xid FROM events WHERE seq IN ($1, $2) ORDER BY seq`, [second!.lastSeq, third!.lastSeq]);
    await ds.query(`UPDATE events SET xid = CASE seq WHEN $1 THEN $2::xid8 ELSE $3::xid8 END WHERE seq IN ($1, $4)`, [xids[0]!.seq, xids[1]!.xid, xids[0]!.xid, xids[1]!.seq]);

    // The higher seq comes in one page, the lower one in the next.
    expect(await walker.catchUp({ waitForHeldBackMs: 60_000 })).toMatchObject({ reordered: 1 });
    const walked = await projection(await active());
    const hpa = walked.transitions.filter((t: { manager: string; seq: string }) => t.manager === 'hpa' && t.seq === xids[0]!.seq);
    expect(hpa.length).toBeGreaterThan(0);
    // The object folded from its history in seq order (a one-object replay reads it by seq): the same rows.
    await walker.replay({ kind: 'object', objectId: second!.objectId });
    expect(await projection(await active())).toEqual(walked);
  });
});
