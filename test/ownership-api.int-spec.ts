import { createServer } from 'node:net';
import type { DataSource } from 'typeorm';
import { stringify as toYaml } from 'yaml';
import { ManagerCheckpoints, createDataSource } from '../libs/store/src/index.js';
import { backfillFindingsAndManagerIdentities, backfillDerivedVersions } from '../libs/store/src/projections/derived-backfills.js';
import { IngestProducer, QUEUE_DRIVER, type QueueDriver } from '../libs/queue/src/index.js';
import { caseObservations, caseStep, createTestContext, waitFor, type TestContext } from '../libs/testing/src/index.js';
import { startApplication, type RunningApplication } from '../apps/bootstrap.js';
import { VersionTimes1796100000000 } from '../migrations/1796100000000-VersionTimes.js';
import { StateUpdatesInPlace1796200000000 } from '../migrations/1796200000000-StateUpdatesInPlace.js';

// Recorded conformance cases → BullMQ → ingest → events → project → projections → the /v1 API over HTTP.

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

const INCIDENTS = ['incident-a-pod-set-image', 'incident-b-configmap-ghost-label', 'incident-d-hpa-scale-subresource'];
/** More cases, so lists have pages. */
const OTHERS = ['assoc-list-env-by-name', 'granular-maps-labels-annotations-data', 'csa-to-ssa-upgrade-kubectl', 'atomic-list-args'];

describe('ownership API over the real pipeline (Postgres, Redis, BullMQ)', () => {
  let ctx: TestContext;
  let ds: DataSource;
  let app: RunningApplication;
  let base: string;
  const ids = new Map<string, string>();

  const get = async (path: string): Promise<{ status: number; body: any }> => {
    const res = await fetch(base + path);
    return { status: res.status, body: await res.json() };
  };
  const post = async (path: string, body: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
  const q = (s: string) => encodeURIComponent(s);
  /** Every item of a list, read one per page through its cursors. */
  const everyPage = async (list: string, query: string) => {
    const items: any[] = [];
    let cursor = '';
    do {
      const page = await get(`${list}?limit=1${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect([list, query, page.status]).toEqual([list, query, 200]);
      items.push(...page.body.items);
      cursor = page.body.nextCursor ?? '';
    } while (cursor);
    return items;
  };

  /** One page of `list` (all of it: at most 500 items), for `query`. */
  const wholeList = async (list: string, query: string) => {
    const page = await get(`${list}?limit=500${query}`);
    expect([list, query, page.status, page.body.nextCursor]).toEqual([list, query, 200, null]);
    return page.body.items;
  };

  /** Every time an event was observed (to the millisecond), oldest first, and the same with a millisecond before each. */
  const eventTimes = async () => {
    const observed: string[] = (await ds.query(`SELECT DISTINCT date_trunc('milliseconds', observed_at) AS t FROM events ORDER BY 1`)).map((r: { t: Date }) => r.t.toISOString());
    return { observed, times: [...new Set(observed.flatMap((t) => [new Date(Date.parse(t) - 1).toISOString(), t]))] };
  };

  /**
   * `list` as of every sequence of the log, for each of `queries(seq)`: answered from the versions,
   * then the same folded from every object's events (versions kept only from after the last
   * sequence), which must give the same; also page by page at the last. Returns the answers.
   */
  const versionsAnswerAsTheFold = async (list: string, queries: (seq: string) => string[]) => {
    // Qualified: ORDER BY a bare "seq" would sort the text alias.
    const seqs: string[] = (await ds.query(`SELECT e.seq::text AS seq FROM events e ORDER BY e.seq`)).map((r: { seq: string }) => r.seq);
    const max = seqs.at(-1)!;
    const fromVersions = new Map<string, unknown[]>();
    for (const seq of seqs) for (const query of queries(seq)) fromVersions.set(query, await wholeList(list, query));
    const paged = await everyPage(list, `&at=${max}`);
    // The answers differ along the log.
    expect(new Set([...fromVersions.values()].map((v) => JSON.stringify(v))).size).toBeGreaterThan(2);
    const [{ active }] = await ds.query(`SELECT active FROM projection_generations`);
    await ds.query(`INSERT INTO derived_versions_start (generation, seq) VALUES ($1, $2)`, [active, String(BigInt(max) + 1n)]);
    try {
      for (const seq of seqs) for (const query of queries(seq)) expect([query, await wholeList(list, query)]).toEqual([query, fromVersions.get(query)]);
      expect(await everyPage(list, `&at=${max}`)).toEqual(paged);
    } finally {
      await ds.query(`DELETE FROM derived_versions_start WHERE generation = $1`, [active]);
    }
    return { seqs, fromVersions, active };
  };

  /**
   * `list` as of every time an event was observed and a millisecond before each, for each of
   * `queries(time)`: answered from the versions by their times (moving every version a century later
   * empties the newest answer), then the same folded from every object's events (versions complete
   * only after the newest), which must give the same; also page by page at the newest.
   */
  const versionsAnswerAsTheFoldByTime = async (list: string, table: string, queries: (time: string) => string[]) => {
    const { observed, times } = await eventTimes();
    const newest = observed.at(-1)!;
    const fromVersions = new Map<string, unknown[]>();
    for (const t of times) for (const query of queries(q(t))) fromVersions.set(query, await wholeList(list, query));
    const paged = await everyPage(list, `&at=${q(newest)}`);
    expect(paged.length).toBeGreaterThan(1);
    expect(new Set([...fromVersions.values()].map((v) => JSON.stringify(v))).size).toBeGreaterThan(2);
    await ds.query(`UPDATE ${table} SET at = at + interval '100 years'`);
    try {
      expect(await wholeList(list, `&at=${q(newest)}`)).toEqual([]);
    } finally {
      await ds.query(`UPDATE ${table} SET at = at - interval '100 years'`);
    }
    const [{ active }] = await ds.query(`SELECT active FROM projection_generations`);
    await ds.query(`INSERT INTO derived_versions_start (generation, seq, at) VALUES ($1, 0, $2)`, [active, new Date(Date.parse(newest) + 1).toISOString()]);
    try {
      for (const t of times) for (const query of queries(q(t))) expect([query, await wholeList(list, query)]).toEqual([query, fromVersions.get(query)]);
      expect(await everyPage(list, `&at=${q(newest)}`)).toEqual(paged);
    } finally {
      await ds.query(`DELETE FROM derived_versions_start WHERE generation = $1`, [active]);
    }
    // Objects one of whose events went back in time are folded, the others read from their versions: with
    // two such objects' versions gone, every answer is the same, page by page too.
    const marked: string[] = (await ds.query(`SELECT DISTINCT object_id FROM ${table} WHERE generation = $1 AND until_seq IS NULL ORDER BY object_id LIMIT 2`, [active]))
      .map((r: { object_id: string }) => r.object_id);
    expect(marked.length).toBe(2);
    const hidden = await ds.query(`SELECT * FROM ${table} WHERE object_id = ANY($1)`, [marked]);
    await ds.query(`DELETE FROM ${table} WHERE object_id = ANY($1)`, [marked]);
    await ds.query(`UPDATE ownership_states SET ordered_through = NULL WHERE object_id = ANY($1)`, [marked]);
    try {
      for (const t of times) for (const query of queries(q(t))) expect([query, await wholeList(list, query)]).toEqual([query, fromVersions.get(query)]);
      expect(await everyPage(list, `&at=${q(newest)}`)).toEqual(paged);
      if (list === '/v1/findings') {
        // The others come from their versions: moved a century later, only the folded objects' findings are left.
        await ds.query(`UPDATE ${table} SET at = at + interval '100 years'`);
        try {
          const left = paged.filter((f: { objectId: string }) => marked.includes(f.objectId));
          expect(left.length).toBeGreaterThan(0);
          expect(await wholeList(list, `&at=${q(newest)}`)).toEqual(left);
        } finally {
          await ds.query(`UPDATE ${table} SET at = at - interval '100 years'`);
        }
      }
      // With their versions back, they are still counted once.
      await ds.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`, [JSON.stringify(hidden)]);
      hidden.length = 0;
      expect(await everyPage(list, `&at=${q(newest)}`)).toEqual(paged);
      for (const t of times.slice(-4)) for (const query of queries(q(t))) expect([query, await wholeList(list, query)]).toEqual([query, fromVersions.get(query)]);
    } finally {
      await ds.query(`UPDATE ownership_states SET ordered_through = last_seq WHERE object_id = ANY($1)`, [marked]);
      await ds.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`, [JSON.stringify(hidden)]);
    }
    return { times, fromVersions };
  };

  /** Waits until every stored event is folded into the active generation's projections. */
  const projected = async () => {
    const driver = app.app.get<QueueDriver>(QUEUE_DRIVER);
    await waitFor(
      'projections to catch up',
      async () => {
        if ((await driver.pending('ingest')) + (await driver.pending('project')) > 0) return false;
        const [r] = await ds.query(
          `SELECT count(*) AS n FROM objects o
           LEFT JOIN ownership_states s ON s.object_id = o.id::text AND s.generation = (SELECT active FROM projection_generations)
           WHERE s.last_seq IS DISTINCT FROM o.last_seq`,
        );
        if (Number(r.n) !== 0) return false;
        // Appends fold their objects as they store them: the projector's walk of the log (what the event log serves up to) must pass them too.
        const [behind] = await ds.query(
          `SELECT count(*) AS n FROM events e WHERE NOT EXISTS (
             SELECT 1 FROM projection_checkpoints p
             WHERE p.projection = 'ownership@' || (SELECT active FROM projection_generations) AND (e.xid, e.seq) <= (p.last_xid, p.last_seq))`,
        );
        return Number(behind.n) === 0;
      },
      60_000,
    );
  };

  const ingest = async (cluster: string, cases: readonly string[], beforeStep?: number) => {
    const producer = app.app.get(IngestProducer);
    for (const c of cases) await producer.enqueue(caseObservations(c, cluster, beforeStep).observations);
    await projected();
  };

  const idOf = async (cluster: string, caseName: string) => {
    const { uid } = caseObservations(caseName, cluster);
    const [row] = await ds.query(`SELECT o.id::text AS id FROM objects o JOIN clusters c ON c.id = o.cluster_id WHERE c.name = $1 AND o.uid = $2`, [cluster, uid]);
    return row.id as string;
  };

  beforeAll(async () => {
    ctx = await createTestContext('api');
    ds = await createDataSource(ctx.database.url, 2).initialize();
    app = await startApplication(ctx.config({ PORT: String(await freePort()) }), { roles: ['api', 'worker'], migrate: false });
    base = app.url!;
    await ingest('prod', [...INCIDENTS, ...OTHERS]);
    for (const c of [...INCIDENTS, ...OTHERS]) ids.set(c, await idOf('prod', c));
  });
  afterAll(async () => {
    await app?.close();
    await ds?.destroy();
    await ctx?.dispose();
  });

  it('lists objects with filters and cursor pagination', async () => {
    const all = await get('/v1/objects?cluster=prod');
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(INCIDENTS.length + OTHERS.length);
    expect(all.body.nextCursor).toBeNull();
    expect(Object.keys(all.body.items[0])).toEqual(expect.arrayContaining(['id', 'cluster', 'uid', 'group', 'version', 'kind', 'namespace', 'name', 'deleted']));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { id: string }[]; nextCursor: string | null } } = await get(`/v1/objects?cluster=prod&limit=2${cursor ? `&cursor=${q(cursor)}` : ''}`);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((i) => i.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.body.items.map((i: { id: string }) => i.id));
    const deployments = await get('/v1/objects?kind=Deployment&group=apps');
    expect(deployments.body.items.map((i: { id: string }) => i.id)).toContain(ids.get('incident-d-hpa-scale-subresource'));
    expect(deployments.body.items.every((i: { kind: string; group: string }) => i.kind === 'Deployment' && i.group === 'apps')).toBe(true);
    expect(deployments.body.items.length).toBeLessThan(all.body.items.length);
    const byManager = await get('/v1/objects?manager=horizontal-pod-autoscaler');
    expect(byManager.body.items.map((i: { id: string }) => i.id)).toEqual([ids.get('incident-d-hpa-scale-subresource')]);
    expect((await get('/v1/objects?cursor=bogus')).body).toMatchObject({ code: 'invalid-cursor', parameter: 'cursor' });
  });

  it('manager= with at= lists the objects the manager owned a field of then, not today (issue 15)', async () => {
    const a = ids.get('incident-a-pod-set-image')!; // kubectl-set owns the image from the second event until kubectl forces it back
    const d = ids.get('incident-d-hpa-scale-subresource')!; // the HPA owns replicas from the second event on
    const seqsOf = async (id: string): Promise<string[]> => (await ds.query(`SELECT seq::text AS seq FROM events WHERE object_id = $1 ORDER BY seq`, [id])).map((r: { seq: string }) => r.seq);
    const listed = async (query: string): Promise<string[]> => {
      const r = await get(`/v1/objects?${query}`);
      expect(r.status).toBe(200);
      return r.body.items.map((i: { id: string }) => i.id);
    };
    const [, aTaken, aForced] = await seqsOf(a);
    const [dFirst, dScaled] = await seqsOf(d);
    // Without at=: today's managers, as before.
    expect(await listed('cluster=prod&manager=kubectl-set')).toEqual([]);
    expect(await listed('cluster=prod&manager=horizontal-pod-autoscaler')).toEqual([d]);
    // Owned then, not now: at= as a time and as a sequence.
    expect(await listed('cluster=prod&manager=kubectl-set&at=2024-01-01T00:00:02Z')).toEqual([a]);
    expect(await listed(`cluster=prod&manager=kubectl-set&at=${aTaken}`)).toEqual([a]);
    expect(await listed(`cluster=prod&manager=kubectl-set&at=${aForced}`)).toEqual([]);
    // Owns now, not then.
    expect(await listed('cluster=prod&manager=horizontal-pod-autoscaler&at=2024-01-01T00:00:01Z')).toEqual([]);
    expect(await listed(`cluster=prod&manager=horizontal-pod-autoscaler&at=${dFirst}`)).toEqual([]);
    expect(await listed(`cluster=prod&manager=horizontal-pod-autoscaler&at=${dScaled}`)).toEqual([d]);
    // Every manager at every moment of the cases: exactly the objects whose ownership then names it, in id order, page by page too.
    const owners = (n: { owners: { manager: string }[]; children: unknown[] }): string[] => [...n.owners.map((o) => o.manager), ...n.children.flatMap((c) => owners(c as typeof n))];
    const managers = ['kubectl', 'kubectl-set', 'horizontal-pod-autoscaler', 'flux-controller', 'kubectl-client-side-apply', 'nobody'];
    const all: string[] = await listed('cluster=prod&limit=500');
    const [{ latest }] = await ds.query(`SELECT max(seq)::text AS latest FROM events`);
    for (const at of ['2024-01-01T00:00:01Z', '2024-01-01T00:00:02Z', '2024-01-01T00:00:03Z', aTaken!, dScaled!, latest]) {
      const trees = new Map<string, string[]>();
      for (const id of all) {
        const r = await get(`/v1/objects/${id}/ownership?at=${q(at)}`);
        if (r.status === 200) trees.set(id, owners(r.body.tree));
      }
      for (const m of managers) {
        const expected = all.filter((id) => trees.get(id)?.includes(m));
        expect([m, at, await listed(`cluster=prod&manager=${m}&at=${q(at)}`)]).toEqual([m, at, expected]);
        const paged: string[] = [];
        let cursor: string | null = null;
        do {
          const page: { body: { items: { id: string }[]; nextCursor: string | null } } = await get(`/v1/objects?cluster=prod&manager=${m}&at=${q(at)}&limit=1${cursor ? `&cursor=${q(cursor)}` : ''}`);
          expect(page.body.items.length).toBe(cursor === null && expected.length === 0 ? 0 : 1);
          paged.push(...page.body.items.map((i) => i.id));
          cursor = page.body.nextCursor;
        } while (cursor);
        expect(paged).toEqual(expected);
        // At the latest sequence: the answer without at=.
        if (at === latest) expect(await listed(`cluster=prod&manager=${m}`)).toEqual(expected);
      }
    }
  });

  it('manager= with at= over a version that needs a fold (an unreadable event) and a deletion', async () => {
    const { observations, uid } = caseObservations('incident-a-pod-set-image', 'mgr-at');
    const [first, second, ...rest] = observations as [any, any, ...any[]];
    const broken = {
      ...second,
      object: { ...second.object, metadata: { ...second.object.metadata, resourceVersion: '1b', managedFields: [{ manager: 'x', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': 'not a set' } }] } },
    };
    const last = rest[rest.length - 1];
    const deleted = { ...last, type: 'DELETED', object: { ...last.object, metadata: { ...last.object.metadata, resourceVersion: 'gone' } } };
    const producer = app.app.get(IngestProducer);
    for (const batch of [[first, broken], [second, ...rest], [deleted]]) {
      await producer.enqueue(batch);
      await projected();
    }
    const [{ id }] = await ds.query(`SELECT o.id::text AS id FROM objects o JOIN clusters c ON c.id = o.cluster_id WHERE c.name = 'mgr-at' AND o.uid = $1`, [uid]);
    const versions: { seq: string; fold_required: boolean; deleted: boolean }[] = await ds.query(
      `SELECT seq::text AS seq, fold_required, deleted FROM ownership_versions WHERE generation = (SELECT active FROM projection_generations) AND object_id = $1 ORDER BY seq`,
      [id],
    );
    const seqs: string[] = (await ds.query(`SELECT seq::text AS seq FROM events WHERE object_id = $1 ORDER BY seq`, [id])).map((r: { seq: string }) => r.seq);
    expect(seqs).toHaveLength(5);
    const [s1, sBroken, sTaken, sForced, sDeleted] = seqs;
    expect(versions.find((v) => v.seq === sBroken)).toMatchObject({ fold_required: true });
    expect(versions[versions.length - 1]).toMatchObject({ seq: sDeleted, deleted: true });
    const listed = async (query: string): Promise<{ id: string; deleted: boolean }[]> =>
      (await get(`/v1/objects?cluster=mgr-at&${query}`)).body.items.map((i: { id: string; deleted: boolean }) => ({ id: i.id, deleted: i.deleted }));
    // The unreadable event changes no owner: as of it, kubectl still owns what it applied (folded, as the ownership read is).
    expect(await listed(`manager=kubectl&at=${s1}`)).toEqual([{ id, deleted: false }]);
    expect(await listed(`manager=kubectl&at=${sBroken}`)).toEqual([{ id, deleted: false }]);
    expect(await listed(`manager=x&at=${sBroken}`)).toEqual([]);
    expect(await listed(`manager=kubectl-set&at=${sBroken}`)).toEqual([]);
    expect(await listed(`manager=kubectl-set&at=${sTaken}`)).toEqual([{ id, deleted: false }]);
    expect(await listed(`manager=kubectl-set&at=2024-01-01T00:00:02Z`)).toEqual([{ id, deleted: false }]);
    expect(await listed(`manager=kubectl-set&at=${sForced}`)).toEqual([]);
    expect(await listed(`manager=kubectl&at=${sForced}`)).toEqual([{ id, deleted: false }]);
    // Deleted: nobody owns anything of it, then as now (the object itself is still listed, deleted).
    expect(await listed(`manager=kubectl&at=${sDeleted}`)).toEqual([]);
    expect(await listed(`manager=kubectl&at=2024-01-01T00:00:04Z`)).toEqual([]);
    expect(await listed(`manager=kubectl`)).toEqual([]);
    expect(await listed(`at=${sDeleted}`)).toEqual([{ id, deleted: true }]);
  });

  it('lists the objects as of every time as each object answers then: to the millisecond, and one whose events went back in time', async () => {
    const all: { id: string }[] = await wholeList('/v1/objects', '');
    const listed = async (t: string) => (await wholeList('/v1/objects', `&at=${q(t)}`)).map((o: { id: string; deleted: boolean }) => [o.id, o.deleted]);
    const answered = async (t: string) => {
      const found: [string, boolean][] = [];
      for (const { id } of all) {
        const r = await get(`/v1/objects/${id}/ownership?at=${q(t)}`);
        if (r.status === 200) found.push([id, r.body.object.deleted]);
        else expect([id, t, r.status]).toEqual([id, t, 404]);
      }
      return found;
    };
    // Every event observed 700 µs into its millisecond, and the objects' histories apart by tens of milliseconds (their
    // events' order kept), the states' times with them (as the projection writes them).
    const shift = async (sign: 1 | -1) => {
      const by = (id: string) => `${sign} * (interval '700 microseconds' + (${id} % 4) * interval '10 milliseconds')`;
      await ds.query(`UPDATE events SET observed_at = observed_at + ${by('object_id')}`);
      await ds.query(`UPDATE ownership_states SET first_at = first_at + ${by('object_id::bigint')}, last_at = last_at + ${by('object_id::bigint')}`);
      // Transitions carry their events' times to the millisecond.
      await ds.query(`UPDATE field_transitions SET at = at + ${sign} * (object_id::bigint % 4) * interval '10 milliseconds'`);
    };
    // One object whose last event went back in time: observed a millisecond before every other event (its row as it was, to restore).
    const [{ object_id: unordered, last_seq: lastSeq, last_at: lastAt, ordered_through: orderedThrough }] = await ds.query(
      `SELECT object_id, last_seq::text, last_at::text, ordered_through::text FROM ownership_states
       WHERE generation = (SELECT active FROM projection_generations) AND first_seq <> last_seq ORDER BY object_id LIMIT 1`,
    );
    const [{ observed: lastObserved }] = await ds.query(`SELECT observed_at::text AS observed FROM events WHERE seq = $1`, [lastSeq]);
    const [{ at: lastTransitionsAt }] = await ds.query(`SELECT min(at)::text AS at FROM field_transitions WHERE object_id = $1 AND seq = $2`, [unordered, lastSeq]);
    // (the shift below assumes whole milliseconds: the recorded cases' times are whole seconds)
    expect(await ds.query(`SELECT count(*)::int AS n FROM events WHERE date_trunc('milliseconds', observed_at) <> observed_at`)).toEqual([{ n: 0 }]);
    let shifted = false;
    try {
      await shift(1);
      shifted = true;
      await ds.query(`UPDATE events SET observed_at = (SELECT min(observed_at) - interval '1 millisecond' FROM events) WHERE seq = $1`, [lastSeq]);
      await ds.query(`UPDATE ownership_states SET last_at = (SELECT observed_at FROM events WHERE seq = $1), ordered_through = NULL WHERE object_id = $2`, [lastSeq, unordered]);
      // Its transitions at its new time, to the millisecond (as the projection would have stored them).
      expect(lastTransitionsAt).not.toBeNull();
      await ds.query(
        `UPDATE field_transitions SET at = (SELECT date_trunc('milliseconds', observed_at) FROM events WHERE seq = $2) WHERE object_id = $1 AND seq = $2`,
        [unordered, lastSeq],
      );
      const { observed, times } = await eventTimes();
      const answers = new Set<string>();
      // An object's transitions as of a time are those observed by then, its first observation's included (for objects in time order).
      const transitions = async (id: string, at: string) => (await get(`/v1/objects/${id}/transitions?limit=500${at}`)).body.items;
      const inOrder = all.map((o) => o.id).filter((id) => id !== unordered);
      const everyTransition = new Map<string, { at: string }[]>();
      for (const id of inOrder) everyTransition.set(id, await transitions(id, ''));
      // The object out of time order: as of a time, its transitions are those of a fold of the events observed by then, each
      // path's as its history answers it then (which folds them); not its stored transitions cut at the time.
      type Item = { at: string; path: string; fieldsV1Path: string };
      const unorderedAll: Item[] = await transitions(unordered, '');
      const unorderedPaths = [...new Set(unorderedAll.map((x) => x.fieldsV1Path))];
      let cutDiffers = false;
      for (const t of times) {
        const expected = await answered(t);
        expect([t, await listed(t)]).toEqual([t, expected]);
        answers.add(JSON.stringify(expected));
        for (const id of inOrder) {
          expect([id, t, await transitions(id, `&at=${q(t)}`)]).toEqual([id, t, everyTransition.get(id)!.filter((x) => Date.parse(x.at) <= Date.parse(t))]);
        }
        const folded: Item[] = await transitions(unordered, `&at=${q(t)}`);
        expect(folded.every((x) => unorderedPaths.includes(x.fieldsV1Path))).toBe(true);
        for (const fieldsV1Path of unorderedPaths) {
          const history = await get(`/v1/objects/${unordered}/fields/history?path=${q(fieldsV1Path)}&at=${q(t)}`);
          const ofPath = folded.filter((x) => x.fieldsV1Path === fieldsV1Path).map(({ path: _p, fieldsV1Path: _f, ...rest }) => rest).reverse();
          expect([t, fieldsV1Path, ofPath]).toEqual([t, fieldsV1Path, history.status === 404 ? [] : history.body.transitions]);
        }
        if (JSON.stringify(folded) !== JSON.stringify(unorderedAll.filter((x) => Date.parse(x.at) <= Date.parse(t)))) cutDiffers = true;
      }
      expect(cutDiffers).toBe(true);
      // Once every event is observed, the fold gives what the projection stored.
      const last = times[times.length - 1]!;
      expect(await transitions(unordered, `&at=${q(last)}`)).toEqual(unorderedAll);
      expect(unorderedAll.length).toBeGreaterThan(2);
      // Its pages join up, one at a time, at every time (the moved event's baseline first, then the others').
      for (const t of times) {
        const paged: Item[] = [];
        let cursor = '';
        do {
          const page = (await get(`/v1/objects/${unordered}/transitions?limit=1&at=${q(t)}${cursor ? `&cursor=${q(cursor)}` : ''}`)).body;
          paged.push(...page.items);
          cursor = page.nextCursor ?? '';
        } while (cursor);
        expect([t, paged]).toEqual([t, await transitions(unordered, `&at=${q(t)}`)]);
      }
      // Objects appear one history after another, and one is deleted.
      expect(answers.size).toBeGreaterThan(6);
      expect([...answers].some((a) => a.includes('true'))).toBe(true);
      // The object out of time order is listed from its moved event on, before its first one.
      expect((await listed(observed[0]!)).map(([id]: [string]) => id)).toEqual([unordered]);
    } finally {
      // Back as it was: every time, then the moved event and its state's row.
      if (shifted) await shift(-1);
      await ds.query(`UPDATE events SET observed_at = $2::timestamptz WHERE seq = $1`, [lastSeq, lastObserved]);
      await ds.query(`UPDATE ownership_states SET last_at = $2::timestamptz, ordered_through = $3::bigint WHERE object_id = $1`, [unordered, lastAt, orderedThrough]);
      await ds.query(`UPDATE field_transitions SET at = $3::timestamptz WHERE object_id = $1 AND seq = $2`, [unordered, lastSeq, lastTransitionsAt]);
    }
  });

  it('incident d: the HPA owns .spec.replicas through the scale subresource, taken from the applier', async () => {
    const id = ids.get('incident-d-hpa-scale-subresource')!;
    const field = await get(`/v1/objects/${id}/fields?path=.spec.replicas`);
    expect(field.status).toBe(200);
    expect(field.body).toMatchObject({ path: '.spec.replicas', present: true, value: 7 });
    expect(field.body.owners).toEqual([expect.objectContaining({ manager: 'horizontal-pod-autoscaler', operation: 'Update', subresource: 'scale', apiVersion: 'apps/v1', since: '2024-01-01T00:00:02.000Z' })]);
    // The same field in FieldsV1 form.
    const v1 = await get(`/v1/objects/${id}/fields?path=${q('f:spec.f:replicas')}`);
    expect(v1.body.owners).toEqual(field.body.owners);
    const history = await get(`/v1/objects/${id}/fields/history?path=.spec.replicas`);
    expect(history.body.transitions.map((t: { type: string; manager: string }) => [t.type, t.manager])).toEqual([
      ['acquired', 'kubectl'],
      ['taken', 'horizontal-pod-autoscaler'],
    ]);
    expect(history.body.transitions[1].owners).toEqual([expect.objectContaining({ manager: 'horizontal-pod-autoscaler', subresource: 'scale' })]);
    // As of the moment before the scale, the applier owned the field.
    const before = await get(`/v1/objects/${id}/fields?path=.spec.replicas&at=2024-01-01T00:00:01Z`);
    expect(before.body.owners.map((o: { manager: string }) => o.manager)).toEqual(['kubectl']);
    const tree = await get(`/v1/objects/${id}/ownership`);
    const spec = tree.body.tree.children.find((n: { segment: string }) => n.segment === 'spec');
    expect(spec.children.find((n: { segment: string }) => n.segment === 'replicas').owners[0].manager).toBe('horizontal-pod-autoscaler');
    expect(JSON.stringify(tree.body)).not.toContain('"value"'); // values only when asked for
    // ?values=true: the same tree, every leaf with its value, as `fields` answers it one at a time.
    const valued = await get(`/v1/objects/${id}/ownership?values=true`);
    const leaves: { path: string; value?: unknown; children: unknown[] }[] = [];
    const walk = (n: { path: string; value?: unknown; children: unknown[] }) => (n.children.length === 0 ? leaves.push(n) : n.children.forEach((c) => walk(c as typeof n)));
    walk(valued.body.tree);
    expect(leaves.length).toBeGreaterThan(3);
    for (const leaf of leaves) {
      const field = (await get(`/v1/objects/${id}/fields?path=${encodeURIComponent(leaf.path)}`)).body;
      if (field.present && field.value !== null) expect(leaf).toMatchObject({ value: field.value });
      else expect('value' in leaf).toBe(false);
    }
    expect((await get(`/v1/objects/${id}/ownership?values=maybe`)).status).toBe(400);
    // The findings name the Deployment: its applier conflicts on replicas at its next apply.
    const contested = await get(`/v1/findings?type=replicas-contested`);
    expect(contested.body.items).toEqual([expect.objectContaining({ objectId: id, type: 'replicas-contested', path: '.spec.replicas' })]);
    expect(contested.body.items[0].managers.map((m: { manager: string }) => m.manager)).toEqual(['horizontal-pod-autoscaler', 'kubectl']);
    // cluster= narrows them to one cluster's objects.
    expect((await get(`/v1/findings?type=replicas-contested&cluster=prod`)).body.items).toEqual(contested.body.items);
    expect((await get(`/v1/findings?type=replicas-contested&cluster=elsewhere`)).body.items).toEqual([]);
    const hpa = await get(`/v1/managers/horizontal-pod-autoscaler/fields?kind=Deployment`);
    expect(hpa.body.items).toEqual([expect.objectContaining({ object: expect.objectContaining({ id }), fields: [expect.objectContaining({ path: '.spec.replicas', subresource: 'scale' })] })]);
  });

  it('incident d: the finding is gone once the applier applies a change without replicas (a new image)', async () => {
    const { observations } = caseObservations('incident-d-hpa-scale-subresource', 'prod');
    const last = structuredClone(observations[observations.length - 1]!) as any;
    last.object.metadata.resourceVersion = '99';
    last.observedAt = '2024-01-01T00:00:05Z';
    last.object.spec.template.spec.containers[0].image = 'nginx:1.99';
    for (const e of last.object.metadata.managedFields) if (e.manager === 'kubectl') e.time = '2024-01-01T00:00:05Z';
    await app.app.get(IngestProducer).enqueue([last]);
    await projected();
    const id = ids.get('incident-d-hpa-scale-subresource')!;
    expect((await get(`/v1/findings?type=replicas-contested`)).body.items).toEqual([]);
    // ... and at= still sees it before that apply.
    expect((await get(`/v1/findings?type=replicas-contested&at=2024-01-01T00:00:04Z`)).body.items).toEqual([expect.objectContaining({ objectId: id })]);
    expect((await get(`/v1/findings?type=replicas-contested&at=2024-01-01T00:00:04Z&cluster=prod`)).body.items).toEqual([expect.objectContaining({ objectId: id })]);
    expect((await get(`/v1/findings?type=replicas-contested&at=2024-01-01T00:00:04Z&cluster=elsewhere`)).body.items).toEqual([]);
    expect((await get(`/v1/objects/${id}/fields?path=.spec.replicas`)).body.owners.map((o: { manager: string }) => o.manager)).toEqual(['horizontal-pod-autoscaler']);
  });

  it('incident b: explains the ghost label with its remaining owner and remedies', async () => {
    const id = ids.get('incident-b-configmap-ghost-label')!;
    // As of step 2 (flux dropped the label, the client-side apply entry keeps it).
    const r = await get(`/v1/objects/${id}/explain?path=${q('.metadata.labels.team')}&at=2024-01-01T00:00:03Z`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ path: '.metadata.labels.team', present: true, cause: 'co-owned-after-release', releasedBy: { manager: 'flux-controller' } });
    expect(r.body.causes).toEqual(expect.arrayContaining(['co-owned-after-release', 'client-side-apply-leftover']));
    expect(r.body.remainingOwners).toEqual([expect.objectContaining({ manager: 'kubectl-client-side-apply', operation: 'Update' })]);
    expect(r.body.remedies.length).toBeGreaterThan(0);
    for (const remedy of r.body.remedies) expect(typeof remedy.summary).toBe('string');
    expect(r.body.remedies.some((x: { command: string | null }) => x.command?.startsWith('kubectl '))).toBe(true);
    // Now (after the client-side apply removed it), the label is gone.
    const now = await get(`/v1/objects/${id}/explain?path=${q('.metadata.labels.team')}`);
    expect(now.body.present).toBe(false);
  });

  it('incident a: image history acquired → taken → forced with values', async () => {
    const id = ids.get('incident-a-pod-set-image')!;
    const path = '.spec.containers[name="nginx-container"].image';
    const h = await get(`/v1/objects/${id}/fields/history?path=${q(path)}`);
    expect(h.status).toBe(200);
    expect(h.body.transitions.map((t: { type: string; manager: string }) => [t.type, t.manager])).toEqual([
      ['acquired', 'kubectl'],
      ['taken', 'kubectl-set'],
      ['forced', 'kubectl'],
    ]);
    const values = h.body.values.map((v: { value: unknown }) => v.value);
    expect(values).toHaveLength(3);
    expect(values[0]).toBe(values[2]);
    expect(values[1]).toBe('nginx:1.16.1');
    // Every transition of the object, newest first, in pages.
    const all = await get(`/v1/objects/${id}/transitions?limit=500`);
    const seqs = all.body.items.map((t: { seq: string }) => Number(t.seq));
    expect([...seqs].sort((a, b) => b - a)).toEqual(seqs);
    const paged: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: unknown[]; nextCursor: string | null } } = await get(`/v1/objects/${id}/transitions?limit=3${cursor ? `&cursor=${q(cursor)}` : ''}`);
      paged.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all.body.items);
    // at= as a sequence: the first event only.
    const first = seqs[seqs.length - 1];
    const asOfFirst = await get(`/v1/objects/${id}/fields?path=${q(path)}&at=${first}`);
    expect(asOfFirst.body.owners.map((o: { manager: string }) => o.manager)).toEqual(['kubectl']);
  });

  it('lists the stored findings as folding every object gives them: page by page, by type, since, cluster', async () => {
    const [{ max }] = await ds.query(`SELECT max(seq)::text AS max FROM events`);
    const pages = (query: string) => everyPage('/v1/findings', query);
    const stored = await pages('');
    const types = [...new Set(stored.map((f) => f.type))];
    expect(stored.length).toBeGreaterThan(2);
    expect(types.length).toBeGreaterThan(1);
    const later = stored.reduce((a, f) => (BigInt(f.sinceSeq) > BigInt(a.sinceSeq) ? f : a));
    for (const query of ['', '&cluster=prod', '&cluster=elsewhere', ...types.map((t) => `&type=${t}`), `&type=${types[0]},${types[1]}`, `&since=${later.sinceSeq}`, `&since=${q(later.since)}`]) {
      // `at=` the last event folds every object's events again instead of reading what the projection stored.
      expect(await pages(query)).toEqual(await pages(`${query}&at=${max}`));
    }
    expect((await get('/v1/findings?limit=100')).body).toEqual({ items: stored, nextCursor: null });

    // The upgrade's fill from the stored states (after migration ObjectFindings) computes the same rows.
    const rows = () => ds.query(`SELECT generation, object_id, cluster, findings::text FROM object_findings ORDER BY generation, object_id`);
    const written = await rows();
    const runner = ds.createQueryRunner();
    try {
      await runner.query(`DELETE FROM object_findings`);
      const [{ n }] = await runner.query(`SELECT count(*)::integer AS n FROM ownership_states`);
      expect(await backfillFindingsAndManagerIdentities(runner)).toBe(n);
    } finally {
      await runner.release();
    }
    expect(await rows()).toEqual(written);
  });

  it('lists the findings as of every sequence from their versions as folding every object gives them', async () => {
    const list = (query: string) => wholeList('/v1/findings', query);
    const types = [...new Set((await list('')).map((f: { type: string }) => f.type))];
    const { seqs, fromVersions, active } = await versionsAnswerAsTheFold('/v1/findings', (seq) => [`&at=${seq}`, `&at=${seq}&type=${types[0]}`, `&at=${seq}&cluster=prod`]);
    const max = seqs.at(-1)!;

    // A state written without its versions (an earlier version's worker during a rollout): the lists fold until a replay.
    const [withFindings] = await ds.query(`SELECT object_id FROM findings_versions WHERE generation = $1 AND until_seq IS NULL LIMIT 1`, [active]);
    const hidden = await ds.query(`SELECT * FROM findings_versions WHERE object_id = $1`, [withFindings.object_id]);
    await ds.query(`DELETE FROM findings_versions WHERE object_id = $1`, [withFindings.object_id]);
    try {
      expect((await list(`&at=${max}`)).some((f: { objectId: string }) => f.objectId === withFindings.object_id)).toBe(false);
      await ds.query(`UPDATE ownership_states SET versions_through = NULL WHERE object_id = $1`, [withFindings.object_id]);
      expect(await list(`&at=${max}`)).toEqual(fromVersions.get(`&at=${max}`));
    } finally {
      await ds.query(`UPDATE ownership_states SET versions_through = last_seq WHERE object_id = $1`, [withFindings.object_id]);
      await ds.query(`INSERT INTO findings_versions SELECT * FROM json_populate_recordset(NULL::findings_versions, $1::json)`, [JSON.stringify(hidden)]);
    }

    // A list begun from versions goes on from them, even once they could no longer answer a new one.
    const first = await get(`/v1/findings?limit=1&at=${max}`);
    expect(first.body.nextCursor).not.toBeNull();
    await ds.query(`INSERT INTO derived_versions_start (generation, seq) VALUES ($1, $2)`, [active, String(BigInt(max) + 1n)]);
    try {
      const second = await get(`/v1/findings?limit=1&at=${max}&cursor=${first.body.nextCursor}`);
      expect(second.status).toBe(200);
      expect([...first.body.items, ...second.body.items]).toEqual(fromVersions.get(`&at=${max}`)!.slice(0, 2));
    } finally {
      await ds.query(`DELETE FROM derived_versions_start WHERE generation = $1`, [active]);
    }

    // The upgrade's fill (after migration DerivedVersions): versions from each object's newest event, complete from the newest one.
    const rows = async () => ({
      findings: await ds.query(`SELECT * FROM findings_versions ORDER BY generation, object_id, seq`),
      managers: await ds.query(`SELECT * FROM manager_objects_versions ORDER BY generation, object_id, manager, seq`),
    });
    const written = await rows();
    // The rows in force: the fill writes those the projection wrote (from their objects' newest events instead of where they began).
    const inForce = async () => ({
      findings: await ds.query(`SELECT generation, object_id, cluster, findings::text FROM findings_versions WHERE until_seq IS NULL ORDER BY 1, 2`),
      managers: await ds.query(
        `SELECT generation, object_id, manager, cluster, field_count, identities::text, identity_field_count FROM manager_objects_versions WHERE until_seq IS NULL ORDER BY 1, 2, 3`,
      ),
    });
    let filled: Awaited<ReturnType<typeof inForce>> | undefined;
    try {
      // As before the upgrade: no versions, no state marked as written with them.
      await ds.query(`DELETE FROM findings_versions`);
      await ds.query(`DELETE FROM manager_objects_versions`);
      await ds.query(`UPDATE ownership_states SET versions_through = NULL`);
      const runner = ds.createQueryRunner();
      try {
        // In a transaction, as runDerivedBackfills runs it.
        await runner.startTransaction();
        await backfillDerivedVersions(runner);
        await runner.commitTransaction();
      } finally {
        await runner.release();
      }
      filled = await inForce();
      expect(filled.findings.length).toBeGreaterThan(0);
      expect(await ds.query(`SELECT object_id FROM ownership_states WHERE versions_through IS DISTINCT FROM last_seq`)).toEqual([]);
      const [start] = await ds.query(`SELECT seq::text AS seq FROM derived_versions_start WHERE generation = $1`, [active]);
      const [{ newest }] = await ds.query(`SELECT max(last_seq)::text AS newest FROM ownership_states WHERE generation = $1`, [active]);
      expect(start.seq).toBe(newest);
      expect(await list(`&at=${newest}`)).toEqual(await list(''));
      expect((await get(`/v1/managers?limit=500&at=${newest}`)).body).toEqual((await get('/v1/managers?limit=500')).body);
      // Before it, the list folds (the answer as before the upgrade).
      const earlier = seqs.filter((x) => BigInt(x) < BigInt(newest)).at(-1)!;
      expect(await list(`&at=${earlier}`)).toEqual(fromVersions.get(`&at=${earlier}`));
    } finally {
      await ds.query(`DELETE FROM derived_versions_start`);
      await ds.query(`DELETE FROM findings_versions`);
      await ds.query(`DELETE FROM manager_objects_versions`);
      await ds.query(`INSERT INTO findings_versions SELECT * FROM json_populate_recordset(NULL::findings_versions, $1::json)`, [JSON.stringify(written.findings)]);
      await ds.query(`INSERT INTO manager_objects_versions SELECT * FROM json_populate_recordset(NULL::manager_objects_versions, $1::json)`, [JSON.stringify(written.managers)]);
    }
    expect(await rows()).toEqual(written);
    expect(await inForce()).toEqual(filled);
  });

  it('lists the findings and the managers as of every time from their versions as folding every object gives them', async () => {
    const types = [...new Set((await wholeList('/v1/findings', '')).map((f: { type: string }) => f.type))];
    await versionsAnswerAsTheFoldByTime('/v1/findings', 'findings_versions', (t) => [`&at=${t}`, `&at=${t}&type=${types[0]}`, `&at=${t}&cluster=prod`]);
    await versionsAnswerAsTheFoldByTime('/v1/managers', 'manager_objects_versions', (t) => [`&at=${t}`, `&at=${t}&cluster=prod`]);
  });

  it('lists the managers as of every time from the index checkpoints by time as folding every object gives them, objects out of time order left out and folded', async () => {
    const queries = (t: string) => [`&at=${t}`, `&at=${t}&cluster=prod`];
    const { times, fromVersions } = await versionsAnswerAsTheFoldByTime('/v1/managers', 'manager_objects_versions', queries);
    const everyTimeAsTheFold = async () => {
      for (const t of times) for (const query of queries(q(t))) expect([query, await wholeList('/v1/managers', query)]).toEqual([query, fromVersions.get(query)]);
    };
    const timeCheckpoints = async (): Promise<number> => (await ds.query(`SELECT count(*)::integer AS n FROM manager_time_checkpoints`))[0].n;
    const [{ active }] = await ds.query(`SELECT active FROM projection_generations`);
    const marked: string[] = (await ds.query(`SELECT DISTINCT object_id FROM manager_objects_versions WHERE generation = $1 AND until_seq IS NULL ORDER BY object_id LIMIT 2`, [active]))
      .map((r: { object_id: string }) => r.object_id);
    const hidden = await ds.query(`SELECT * FROM manager_objects_versions WHERE object_id = ANY($1)`, [marked]);
    try {
      // From checkpoints every three version starts (the worker builds them every 5,000): the same answers.
      expect((await new ManagerCheckpoints(ds, { every: 3 }).run()).times.length).toBeGreaterThan(3);
      await everyTimeAsTheFold();
      // Two objects marked out of time order: their versions in force are taken away from the sums and the objects folded.
      await ds.query(`UPDATE ownership_states SET ordered_through = NULL WHERE object_id = ANY($1)`, [marked]);
      expect(await timeCheckpoints()).toBeGreaterThan(3);
      await everyTimeAsTheFold();
      // And without their versions (the checkpoints built again over the rest).
      await ds.query(`DELETE FROM manager_objects_versions WHERE object_id = ANY($1)`, [marked]);
      await new ManagerCheckpoints(ds, { every: 3 }).run();
      expect(await timeCheckpoints()).toBeGreaterThan(1);
      await everyTimeAsTheFold();
    } finally {
      await ds.query(`UPDATE ownership_states SET ordered_through = last_seq WHERE object_id = ANY($1)`, [marked]);
      await ds.query(`DELETE FROM manager_objects_versions WHERE object_id = ANY($1)`, [marked]);
      await ds.query(`INSERT INTO manager_objects_versions SELECT * FROM json_populate_recordset(NULL::manager_objects_versions, $1::json)`, [JSON.stringify(hidden)]);
      await ds.query(`DELETE FROM manager_checkpoints`);
      await ds.query(`DELETE FROM manager_time_checkpoints`);
    }
  });

  it('the migration that gave the versions their times fills them from the events as the projection writes them', async () => {
    const { times } = await eventTimes();
    const answers = async () => {
      const all: unknown[] = [];
      for (const t of times) for (const list of ['/v1/findings', '/v1/managers']) all.push([list, t, await wholeList(list, `&at=${q(t)}`)]);
      return all;
    };
    const rows = async () => ({
      findings: await ds.query(`SELECT * FROM findings_versions ORDER BY generation, object_id, seq`),
      managers: await ds.query(`SELECT * FROM manager_objects_versions ORDER BY generation, object_id, manager, seq`),
      states: await ds.query(`SELECT generation, object_id, ordered_through FROM ownership_states ORDER BY generation, object_id`),
    });
    const before = { answers: await answers(), rows: await rows() };
    expect(before.rows.managers.filter((r: { until_at: unknown }) => r.until_at !== null).length).toBeGreaterThan(0);
    const indexes = () => ds.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'ownership_states' ORDER BY indexname`);
    const indexesBefore = await indexes();
    expect(indexesBefore.map((i: { indexdef: string }) => i.indexdef).filter((d: string) => d.includes('WHERE'))).toEqual([
      expect.stringMatching(/\(generation\) WHERE out_of_time_order$/),
      expect.stringMatching(/\(generation\) WHERE versions_behind$/),
    ]);
    const [{ active }] = await ds.query(`SELECT active FROM projection_generations`);
    // One object whose events went back in time: moved a millisecond before the first event, its last one is out of order.
    const [{ object_id: unordered, last_seq: lastSeq }] = await ds.query(
      `SELECT object_id, last_seq::text FROM ownership_states WHERE generation = $1 AND first_seq <> last_seq ORDER BY object_id LIMIT 1`,
      [active],
    );
    const [{ observed_at: lastObserved }] = await ds.query(`SELECT observed_at FROM events WHERE seq = $1`, [lastSeq]);
    const runner = ds.createQueryRunner();
    // In one transaction, as migrations run: as before the migration (a generation filled at the upgrade before,
    // complete from its newest event; the later migration taken down first and put back after), then the migration.
    await runner.startTransaction();
    try {
      await new StateUpdatesInPlace1796200000000().down(runner);
      await new VersionTimes1796100000000().down(runner);
      await runner.query(`INSERT INTO derived_versions_start (generation, seq) VALUES ($1, $2)`, [active, lastSeq]);
      await runner.query(`UPDATE events SET observed_at = (SELECT min(observed_at) - interval '1 millisecond' FROM events) WHERE seq = $1`, [lastSeq]);
      await new VersionTimes1796100000000().up(runner);
      await new StateUpdatesInPlace1796200000000().up(runner);
      await runner.query(`UPDATE events SET observed_at = $2 WHERE seq = $1`, [lastSeq, lastObserved]);
      await runner.commitTransaction();
    } catch (e) {
      await runner.rollbackTransaction();
      throw e;
    } finally {
      await runner.release();
    }
    try {
      const after = await rows();
      expect(after.states.filter((r: { ordered_through: string | null }) => r.ordered_through === null).map((r: { object_id: string }) => r.object_id)).toEqual([unordered]);
      // The later migration, back up after it, gives the same indexes and flags the same state.
      expect(await indexes()).toEqual(indexesBefore);
      expect(await ds.query(`SELECT object_id FROM ownership_states WHERE out_of_time_order`)).toEqual([{ object_id: unordered }]);
      const [{ at }] = await ds.query(`SELECT at FROM derived_versions_start WHERE generation = $1`, [active]);
      // (the moved event was the oldest then)
      const [{ newest }] = await ds.query(`SELECT date_trunc('milliseconds', max(observed_at)) AS newest FROM events WHERE seq < $1`, [lastSeq]);
      expect(at).toEqual(newest);
      // The moved event's own rows took its moved time: the rest are as the projection wrote them.
      const moved = (r: { seq: string; until_seq: string | null }) => r.seq === lastSeq || r.until_seq === lastSeq;
      const unmoved = (all: Awaited<ReturnType<typeof rows>>) => ({ findings: all.findings.filter((r: any) => !moved(r)), managers: all.managers.filter((r: any) => !moved(r)) });
      expect(unmoved(after)).toEqual(unmoved(before.rows));
      expect(after.findings.length + after.managers.length).toBe(before.rows.findings.length + before.rows.managers.length);
    } finally {
      // The times the projection wrote (the other tests' rows as they were).
      for (const table of ['findings_versions', 'manager_objects_versions']) {
        await ds.query(
          `UPDATE ${table} v SET at = (SELECT date_trunc('milliseconds', e.observed_at) FROM events e WHERE e.seq = v.seq),
                                 until_at = (SELECT date_trunc('milliseconds', e.observed_at) FROM events e WHERE e.seq = v.until_seq)`,
        );
      }
      await ds.query(`UPDATE ownership_states SET ordered_through = last_seq`);
      await ds.query(`DELETE FROM derived_versions_start`);
    }
    expect(await rows()).toEqual(before.rows);
    expect(await answers()).toEqual(before.answers);
  });

  it('lists the managers as of every sequence from the index versions as folding every object gives them, with and without checkpoints', async () => {
    const { fromVersions } = await versionsAnswerAsTheFold('/v1/managers', (seq) => [`&at=${seq}`, `&at=${seq}&cluster=prod`]);
    const [{ max }] = await ds.query(`SELECT max(seq)::text AS max FROM events`);
    expect(await everyPage('/v1/managers', `&at=${max}`)).toEqual(await everyPage('/v1/managers', ''));
    // From checkpoints every three sequences (the worker builds them every 5,000): the same answers.
    try {
      expect((await new ManagerCheckpoints(ds, { every: 3 }).run()).built.length).toBeGreaterThan(3);
      const again = await versionsAnswerAsTheFold('/v1/managers', (seq) => [`&at=${seq}`, `&at=${seq}&cluster=prod`]);
      expect(again.fromVersions).toEqual(fromVersions);
    } finally {
      await ds.query(`DELETE FROM manager_checkpoints`);
    }
  });

  it('lists a manager\'s fields as of every sequence and every time from the index versions as folding every object gives them, page by page, filtered', async () => {
    // The two managers that own fields in the most objects (each in more than one, so a page of one is not the whole list).
    const managers = (await wholeList('/v1/managers', '')).filter((m: { objectCount: number }) => m.objectCount > 1)
      .sort((a: { objectCount: number }, b: { objectCount: number }) => b.objectCount - a.objectCount).slice(0, 2);
    expect(managers.length).toBe(2);
    for (const { manager } of managers) {
      const list = `/v1/managers/${q(manager)}/fields`;
      const bySeq = await versionsAnswerAsTheFold(list, (seq) => [`&at=${seq}`, `&at=${seq}&cluster=prod`, `&at=${seq}&kind=Deployment`]);
      // As of the last event, the same as now.
      expect(await everyPage(list, `&at=${bySeq.seqs.at(-1)}`)).toEqual(await everyPage(list, ''));
      await versionsAnswerAsTheFoldByTime(list, 'manager_objects_versions', (t) => [`&at=${t}`, `&at=${t}&cluster=elsewhere`, `&at=${t}&namespace=default`]);
    }
    // Read from the versions: with every manager's versions moved a century later (by sequence), the lists are empty.
    const [{ max }] = await ds.query(`SELECT max(seq)::text AS max FROM events`);
    const list = `/v1/managers/${q(managers[0].manager)}/fields`;
    expect((await wholeList(list, `&at=${max}`)).length).toBeGreaterThan(1);
    await ds.query(`UPDATE manager_objects_versions SET seq = seq + 1000000000`);
    try {
      expect(await wholeList(list, `&at=${max}`)).toEqual([]);
    } finally {
      await ds.query(`UPDATE manager_objects_versions SET seq = seq - 1000000000`);
    }
    // A cursor of another list, or forged: a clear 400, not a database error.
    const forged = Buffer.from(JSON.stringify({ l: 'manager-fields-versions', v: ['a', 1] })).toString('base64url');
    expect((await get(`${list}?at=${max}&cursor=${forged}`)).status).toBe(400);
  });

  it('lists managers from the manager index as folding every object gives them: page by page, by cluster', async () => {
    const [{ max }] = await ds.query(`SELECT max(seq)::text AS max FROM events`);
    const pages = (query: string) => everyPage('/v1/managers', query);
    const indexed = await pages('');
    expect(indexed.length).toBeGreaterThan(2);
    expect(indexed.some((m) => m.identities.length > 1)).toBe(true);
    for (const query of ['', '&cluster=prod', '&cluster=elsewhere']) {
      // `at=` the last event folds every object's events again instead of reading the index.
      expect(await pages(query)).toEqual(await pages(`${query}&at=${max}`));
    }
    expect((await get('/v1/managers?limit=100')).body).toEqual({ items: indexed, nextCursor: null });

    // The upgrade's fill from the stored states (after migration ObjectFindings) computes the same rows: identities, counts, and rows missing.
    const rows = () => ds.query(`SELECT generation, manager, object_id, cluster, kind, namespace, field_count, identities::text, identity_field_count FROM manager_objects ORDER BY generation, manager, object_id`);
    const written = await rows();
    const runner = ds.createQueryRunner();
    try {
      await runner.query(`UPDATE manager_objects SET identities = NULL, identity_field_count = NULL, field_count = 0`);
      await runner.query(`DELETE FROM manager_objects WHERE ctid IN (SELECT ctid FROM manager_objects LIMIT 2)`);
      await backfillFindingsAndManagerIdentities(runner);
    } finally {
      await runner.release();
    }
    expect(await rows()).toEqual(written);
  });

  it('simulate/apply answers the recorded conflict byte for byte (JSON and YAML manifests)', async () => {
    await ingest('sim', ['incident-a-pod-set-image', 'incident-d-hpa-scale-subresource'], 2);
    for (const c of ['incident-a-pod-set-image', 'incident-d-hpa-scale-subresource']) {
      const step = caseStep(c, 2);
      const request = { cluster: 'sim', manager: step['manager'], force: false, manifest: step['object'] };
      const json = await post('/v1/simulate/apply', request);
      expect(json.status).toBe(200);
      expect(json.body.message).toBe(step.expect['message']);
      expect(json.body.conflicts.length).toBe((step.expect['conflicts'] as unknown[]).length);
      const yaml = await post('/v1/simulate/apply', { ...request, manifest: toYaml(step['object']) });
      expect(yaml.body.message).toBe(step.expect['message']);
      const forced = await post('/v1/simulate/apply', { ...request, force: true });
      expect(forced.body).toMatchObject({ conflicts: [], message: null });
    }
  });

  it('answers 400 for bad input and 404 for unknown objects, never 500', async () => {
    const id = ids.get('incident-d-hpa-scale-subresource')!;
    expect(await get(`/v1/objects/${id}/fields?path=${q('.spec[')}`)).toMatchObject({ status: 400, body: { code: 'invalid-path', parameter: 'path' } });
    expect(await get(`/v1/objects/${id}/fields/history?path=${q('.metadata.annotations.a\u0000b')}`)).toMatchObject({ status: 400, body: { code: 'invalid-path', parameter: 'path' } });
    expect(await get(`/v1/managers/${q('ev\u0000il')}/fields`)).toMatchObject({ status: 400, body: { code: 'invalid-request' } });
    expect(await get(`/v1/objects?manager=${q('ev\u0000il')}`)).toMatchObject({ status: 400, body: { code: 'invalid-request' } });
    expect(await get(`/v1/objects/${id}/fields`)).toMatchObject({ status: 400, body: { code: 'invalid-request' } });
    expect(await get(`/v1/objects/${id}/fields?path=.spec.replicas&at=yesterday`)).toMatchObject({ status: 400, body: { code: 'invalid-at', parameter: 'at' } });
    expect(await get(`/v1/objects/999999/fields?path=.spec.replicas`)).toMatchObject({ status: 404, body: { code: 'object-not-found' } });
    expect(await get(`/v1/objects/not-an-id/explain?path=.spec.replicas`)).toMatchObject({ status: 404 });
    expect(await get(`/v1/objects/${id}/fields?path=.spec.replicas&at=1970-01-01T00:00:00Z`)).toMatchObject({ status: 404 });
    expect(await get(`/v1/objects?limit=0`)).toMatchObject({ status: 400, body: { code: 'invalid-request' } });
    expect(await get(`/v1/findings?type=nonsense`)).toMatchObject({ status: 400 });
    expect(await post('/v1/simulate/apply', { cluster: 'prod', manager: 'kubectl', manifest: 'a: [' })).toMatchObject({ status: 400, body: { code: 'invalid-manifest', parameter: 'manifest' } });
    expect(await post('/v1/simulate/apply', { cluster: 'prod', manager: 'kubectl', manifest: { kind: 'ConfigMap' } })).toMatchObject({ status: 400, body: { code: 'invalid-manifest' } });
    const broken = await fetch(`${base}/v1/simulate/apply`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(broken.status).toBe(400);
  });

  it('lists managers and events with cursors, and serves the OpenAPI document and Swagger UI', async () => {
    const managers = await get('/v1/managers?limit=2');
    expect(managers.body.items).toHaveLength(2);
    expect(managers.body.nextCursor).not.toBeNull();
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { manager: string }[]; nextCursor: string | null } } = await get(`/v1/managers?limit=2${cursor ? `&cursor=${q(cursor)}` : ''}`);
      names.push(...page.body.items.map((m) => m.manager));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(names).toEqual(expect.arrayContaining(['kubectl', 'horizontal-pod-autoscaler', 'flux-controller', 'kubectl-client-side-apply', 'kubectl-set']));
    expect([...names].sort()).toEqual(names);
    const events = await get('/v1/events?limit=5');
    expect(events.body.items).toHaveLength(5);
    const next = await get(`/v1/events?limit=5&since=${q(events.body.nextCursor)}`);
    // The log is in commit order (xid, then seq), not seq order: lanes commit concurrently, so a
    // lower seq can come later. The next page starts after the first page's last cursor, none repeated.
    const position = (cursor: string) => cursor.split(':').map(BigInt) as [bigint, bigint];
    const [[lastXid, lastSeq], [nextXid, nextSeq]] = [position(events.body.items[4].cursor), position(next.body.items[0].cursor)];
    expect(nextXid > lastXid || (nextXid === lastXid && nextSeq > lastSeq)).toBe(true);
    const firstPage = new Set(events.body.items.map((e: { seq: string }) => e.seq));
    expect(next.body.items.filter((e: { seq: string }) => firstPage.has(e.seq))).toEqual([]);
    const bySeq = await get(`/v1/events?limit=1&since=${events.body.items[0].seq}`);
    expect(bySeq.body.items[0].seq).toBe(events.body.items[1].seq);
    const doc = await get('/docs-json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/objects', '/v1/objects/{id}/ownership', '/v1/objects/{id}/fields', '/v1/objects/{id}/fields/history', '/v1/objects/{id}/transitions',
        '/v1/objects/{id}/explain', '/v1/simulate/apply', '/v1/managers', '/v1/managers/{name}/fields', '/v1/findings', '/v1/events', '/v1/events/stream', '/v1/replays',
        '/v1/replays/{jobId}',
      ]),
    );
    const status = doc.body.paths['/v1/replays/{jobId}'].get;
    expect(Object.keys(status.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
    expect(JSON.stringify(status.responses['200'])).toMatch(/failedReason/);
    expect(doc.body.paths['/v1/objects/{id}/fields'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['id', 'path', 'at']));
    const ui = await fetch(`${base}/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });

  it('streams events as server-sent events', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/v1/events/stream?since=0:0`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toMatch(/event: event\nid: \d+:\d+\ndata: \{.*"seq"/);
  });

  it('replays everything into a fresh generation: identical projections, twice; one object likewise', async () => {
    const snapshot = async () => ({
      states: await ds.query(
        `SELECT object_id, cluster, uid, api_group, api_version, kind, namespace, name, deleted, first_seq::text, first_at, last_seq::text, last_at, state, state_compressed, schema_id
         FROM ownership_states WHERE generation = (SELECT active FROM projection_generations) ORDER BY object_id`,
      ),
      transitions: await ds.query(
        `SELECT object_id, seq::text, ordinal, transition FROM field_transitions WHERE generation = (SELECT active FROM projection_generations) ORDER BY object_id, seq, ordinal`,
      ),
      managers: await ds.query(`SELECT manager, object_id, field_count FROM manager_objects WHERE generation = (SELECT active FROM projection_generations) ORDER BY manager, object_id`),
      findings: await ds.query(`SELECT object_id, cluster, findings::text FROM object_findings WHERE generation = (SELECT active FROM projection_generations) ORDER BY object_id`),
      findingsVersions: await ds.query(
        `SELECT object_id, seq::text, until_seq::text, cluster, findings::text FROM findings_versions WHERE generation = (SELECT active FROM projection_generations) ORDER BY object_id, seq`,
      ),
      managerVersions: await ds.query(
        `SELECT object_id, manager, seq::text, until_seq::text, cluster, field_count, identities::text, identity_field_count
         FROM manager_objects_versions WHERE generation = (SELECT active FROM projection_generations) ORDER BY object_id, manager, seq`,
      ),
    });
    const active = async () => Number((await ds.query(`SELECT active FROM projection_generations`))[0].active);
    const before = await snapshot();
    expect(before.states.length).toBeGreaterThan(0);
    expect(before.transitions.length).toBeGreaterThan(0);
    for (let round = 0; round < 2; round++) {
      const generation = await active();
      const r = await post('/v1/replays', { scope: { kind: 'all' } });
      expect(r.status).toBe(202);
      // GET /v1/replays/{jobId} follows it to completed, with the worker's last progress and the result.
      const done = await waitFor('replay completed (GET /v1/replays/{jobId})', async () => {
        const s = await get(`/v1/replays/${r.body.jobId}`);
        expect(s.status).toBe(200);
        expect(['waiting', 'active', 'completed']).toContain(s.body.state);
        return s.body.state === 'completed' ? s.body : undefined;
      }, 60_000);
      expect(done).toEqual({
        jobId: r.body.jobId, scope: { kind: 'all' }, requestedAt: r.body.requestedAt, state: 'completed',
        progress: { events: expect.any(Number), objects: expect.any(Number), percent: 100 },
        result: { events: done.progress.events, objects: done.progress.objects, seconds: expect.any(Number) },
        failedReason: null,
      });
      expect(done.result.events).toBeGreaterThan(0);
      expect(await active()).toBe(generation + 1);
      await projected();
      expect(await snapshot()).toEqual(before);
      const [old] = await ds.query(`SELECT count(*) AS n FROM ownership_states WHERE generation = $1`, [generation]);
      expect(Number(old.n)).toBe(0);
    }
    const id = ids.get('incident-a-pod-set-image')!;
    expect((await post('/v1/replays', { scope: { kind: 'object', objectId: id } })).status).toBe(202);
    expect((await post('/v1/replays', { scope: { kind: 'cluster', cluster: 'sim' } })).status).toBe(202);
    await projected();
    await waitFor('object replays', async () => (await app.app.get<QueueDriver>(QUEUE_DRIVER).pending('project')) === 0);
    expect(await snapshot()).toEqual(before);
    expect((await post('/v1/replays', { scope: { kind: 'object', objectId: 'x' } })).status).toBe(400);
    const unknown = await get('/v1/replays/replay-00000000000000000000000000000000');
    expect(unknown).toEqual({ status: 404, body: { code: 'replay-not-found', message: expect.any(String), parameter: 'jobId' } });
    const malformed = await get('/v1/replays/not-a-job');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'invalid-request', parameter: 'jobId' });
  });

  it('folds events held back behind an open transaction once it commits, without more ingest', async () => {
    const heldEventsWalked = `SELECT count(*) AS n FROM events e JOIN objects o ON o.id = e.object_id JOIN clusters c ON c.id = o.cluster_id
      JOIN projection_checkpoints p ON p.projection = 'ownership@' || (SELECT active FROM projection_generations)
      WHERE c.name = 'held' AND (e.xid, e.seq) <= (p.last_xid, p.last_seq)`;
    const blocker = ds.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    await blocker.query('SELECT pg_current_xact_id()'); // holds an xid: readers stop before it
    try {
      await app.app.get(IngestProducer).enqueue(caseObservations('noop-reapply-keeps-timestamp', 'held').observations);
      await waitFor('ingest', async () => Number((await ds.query(`SELECT count(*) AS n FROM events e JOIN objects o ON o.id = e.object_id JOIN clusters c ON c.id = o.cluster_id WHERE c.name = 'held'`))[0].n) > 0);
      await new Promise((r) => setTimeout(r, 6000)); // longer than the processor waits: a follow-up job takes over
      // The append folded its object as it stored it; the projector's walk of the log stops before the open transaction.
      expect(Number((await ds.query(`SELECT count(*) AS n FROM ownership_states WHERE cluster = 'held'`))[0].n)).toBe(1);
      expect(Number((await ds.query(heldEventsWalked))[0].n)).toBe(0);
    } finally {
      await blocker.commitTransaction();
      await blocker.release();
    }
    await projected();
    expect(Number((await ds.query(`SELECT count(*) AS n FROM ownership_states WHERE cluster = 'held'`))[0].n)).toBe(1);
    expect(Number((await ds.query(heldEventsWalked))[0].n)).toBeGreaterThan(0);
  });

  it('exposes projection lag and last-processed event age as metrics', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toMatch(/^ssa_audit_projection_lag_events 0$/m);
    expect(text).toMatch(/^ssa_audit_projection_last_event_age_seconds \d/m);
  });
});
