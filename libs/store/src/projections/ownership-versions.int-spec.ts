import { readdirSync } from 'node:fs';
import { jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import {
  evolveObjectOwnership,
  explainField,
  fieldFindings,
  findings,
  ManagerTotals,
  fieldHistory,
  managerIndexRows,
  fieldOwners,
  foldObjectOwnership,
  managerOwnsAField,
  ownershipSnapshotOf,
  ownershipTree,
  type AsOf,
  type ObjectOwnershipState,
  type ObservedEvent,
  type OwnershipNode,
} from '../../../audit/src/index.js';
import { compareStrings } from '../../../ssa-engine/src/index.js';
import type { Observation } from '../../../common/src/index.js';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, caseObservations, createTestDatabase, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import { EventAppender } from '../events/event-appender.js';
import { EventReader } from '../events/event-reader.js';
import { ObservedEventLoader } from '../events/observed-event.loader.js';
import { foldingAppender, projectorOn } from '../testing/worker-use-cases.js';
import { OwnershipQueries } from './ownership-queries.js';
import { readSnapshotFromVersions } from './snapshot-from-versions.query.js';
import { transitionRow } from './transition-row.js';
import { BaselineTransitions1795500000000 } from '../../../../migrations/1795500000000-BaselineTransitions.js';

// `at=` reads from ownership versions must give exactly what folding the object's events up to then gives.

const CASES_DIR = new URL('../../../../../shared/conformance/cases/', import.meta.url);
const CASES = readdirSync(CASES_DIR).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();

/** Paths to ask about: every node of the owned tree (owned paths and their ancestors) and a path nobody has. */
function pathsOf(s: ObjectOwnershipState): string[] {
  const out: string[] = [];
  const walk = (n: OwnershipNode): void => {
    if (n.path !== '') out.push(n.path);
    n.children.forEach(walk);
  };
  walk(ownershipTree(s));
  return [...out, '.spec.nobodyOwnsThis'];
}

describe('ownership versions and stored transitions: reads without folding (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let appender: EventAppender;
  let queries: OwnershipQueries;
  let reader: EventReader;
  let loader: ObservedEventLoader;

  beforeAll(async () => {
    db = await createTestDatabase('versions');
    ds = await createDataSource(db.url, 4).initialize();
    appender = foldingAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture);
    queries = new OwnershipQueries(ds);
    reader = new EventReader(ds);
    loader = new ObservedEventLoader(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const project = () => projectorOn(ds).catchUp({ waitForHeldBackMs: 60_000 });
  const objectIdOf = async (uid: string): Promise<string> => (await ds.query(`SELECT id::text AS id FROM objects WHERE uid = $1`, [uid]))[0].id;
  const eventsOf = async (objectId: string): Promise<ObservedEvent[]> => loader.load(await reader.objectHistory(objectId));

  /**
   * Every event's sequence (and its time) of the object: the snapshot and owner reads equal the
   * fold's. `fromVersions`: reads by sequence must be answered by the versions themselves (else the
   * fallback to the fold would pass unnoticed).
   */
  async function expectSameAsFold(objectId: string, fromVersions: boolean): Promise<number> {
    const events = await eventsOf(objectId);
    let checked = 0;
    let folded: ObjectOwnershipState | undefined;
    for (let i = 0; i < events.length; i++) {
      folded = evolveObjectOwnership(folded, events[i]!).state;
      const ms = Date.parse(events[i]!.observedAt);
      // Several events may share a time, or come back in time: the fold of everything observed by then is the reference.
      const byTime = events.filter((e) => Date.parse(e.observedAt) <= ms);
      const prefix = byTime.length === i + 1 && byTime.every((e, k) => e === events[k]);
      const references: [AsOf, ObjectOwnershipState][] = [
        [{ kind: 'seq', seq: String(events[i]!.seq) }, folded],
        [{ kind: 'time', time: events[i]!.observedAt, ms }, prefix ? folded : foldObjectOwnership(byTime).state!],
      ];
      for (const [at, reference] of references) {
        const snapshot = await queries.snapshot(objectId, at);
        expect(snapshot).toEqual(ownershipSnapshotOf(reference));
        if (fromVersions && at.kind === 'seq') expect(await readSnapshotFromVersions(ds, objectId, at)).toEqual(snapshot);
        // As of a time, the derived versions are read by their events' times while the object's events came in time order (a prefix).
        if (at.kind === 'time' && !prefix) continue;
        // Once projected that far, the findings version in force then holds the fold's findings (what `GET /v1/findings?at=` lists).
        const [projected] = await ds.query(
          `SELECT last_seq >= $2::bigint AS yes, ordered_through IS NOT DISTINCT FROM last_seq AS ordered FROM ownership_states WHERE object_id = $1`,
          [objectId, String(events[i]!.seq)],
        );
        if (fromVersions) expect(projected?.yes).toBe(true);
        // Every recorded case's events come in time order: the lists may read their versions by time.
        if (at.kind === 'time' && fromVersions) expect([objectId, projected?.ordered]).toEqual([objectId, true]);
        // In force then, by sequence or by time (to the millisecond), as the lists read them.
        const [inForceSql, moment] =
          at.kind === 'seq'
            ? ['seq <= $2::bigint AND (until_seq IS NULL OR until_seq > $2::bigint)', at.seq]
            : ['at <= $2::timestamptz AND (until_seq IS NULL OR until_at > $2::timestamptz)', new Date(at.ms).toISOString()];
        if (projected?.yes) {
          const inForce: { findings: unknown }[] = await ds.query(
            `SELECT findings FROM findings_versions WHERE object_id = $1 AND ${inForceSql}`,
            [objectId, moment],
          );
          expect(inForce.length).toBeLessThanOrEqual(1);
          expect(inForce[0]?.findings ?? []).toEqual(fieldFindings(reference));
          // And the manager index rows in force then are the fold's (what `GET /v1/managers?at=` sums).
          const managers: { manager: string; field_count: number; identities: [string, string, string][]; identity_field_count: number }[] = await ds.query(
            `SELECT manager, field_count, identities, identity_field_count FROM manager_objects_versions
             WHERE object_id = $1 AND ${inForceSql} ORDER BY manager COLLATE "C"`,
            [objectId, moment],
          );
          const expected = managerIndexRows(reference).sort((a, b) => compareStrings(a.manager, b.manager));
          expect(managers.map((m) => ({ manager: m.manager, fieldCount: m.field_count, identities: m.identities.map(([operation, apiVersion, subresource]) => ({ operation, apiVersion, subresource })), identityFieldCount: m.identity_field_count }))).toEqual(expected);
        }
        // Owner reads are functions of the snapshot: the equality above implies theirs; checked too at each event's sequence.
        if (at.kind === 'time') continue;
        expect(ownershipTree(snapshot)).toEqual(ownershipTree(reference));
        for (const p of pathsOf(reference)) expect(fieldOwners(snapshot, p)).toEqual(fieldOwners(reference, p));
      }
      checked += references.length;
    }
    return checked;
  }

  it('equal the fold at every event of every recorded case', async () => {
    const written = CASES.filter((c) => caseObservations(c, 'versions').observations.length > 0); // some cases only fail
    for (const c of written) await appender.append(caseObservations(c, 'versions').observations);
    await project();
    const versions = Number((await ds.query(`SELECT count(*) AS n FROM ownership_versions`))[0].n);
    const events = Number((await ds.query(`SELECT count(*) AS n FROM events`))[0].n);
    expect(versions).toBeGreaterThan(0);
    expect(versions).toBeLessThanOrEqual(events);
    let checked = 0;
    for (const c of written) {
      const id = await objectIdOf(`uid-versions-${c}`);
      checked += await expectSameAsFold(id, true);
      // The stored transitions (their columns and the rest as json) read back as the fold made them, newest first.
      const all = await eventsOf(id);
      // The first observation's are rebuilt from the first version (nothing of it stored as rows), byte for byte.
      const stored = await queries.transitions(id, undefined, undefined, 500);
      const folded = foldObjectOwnership(all).transitions;
      expect(JSON.stringify([...stored.items].reverse())).toBe(JSON.stringify(folded));
      expect(Number((await ds.query(`SELECT count(*) AS n FROM field_transitions WHERE object_id = $1 AND seq = $2`, [id, String(all[0]!.seq)]))[0].n)).toBe(0);
      // Paged (3 a page, across the baseline) and as of the first event: the same items.
      const paged: unknown[] = [];
      let cursor: string | undefined;
      do {
        const page = await queries.transitions(id, undefined, cursor, 3);
        paged.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(paged).toEqual(stored.items);
      const atFirst = await queries.transitions(id, { kind: 'seq', seq: String(all[0]!.seq) }, undefined, 500);
      expect([...atFirst.items].reverse()).toEqual(folded.filter((t) => t.seq === String(all[0]!.seq)));
      // Field histories and explanations from the projection equal the fold's (a few owned paths at the last event and halfway).
      for (const [upTo, paths] of [[all.length, 5], [Math.ceil(all.length / 2), 2]] as const) {
        const events = all.slice(0, upTo);
        const at: AsOf = { kind: 'seq', seq: String(events[events.length - 1]!.seq) };
        // `.metadata` holds what the event columns put back (its values are read from the events rebuilt whole).
        for (const p of [...pathsOf(foldObjectOwnership(events).state!).slice(0, paths), ...(upTo === all.length ? ['.metadata'] : [])]) {
          // JSON text for JSON text: the answers' bytes, key order included.
          expect(JSON.stringify(await queries.fieldHistory(id, p, at))).toBe(JSON.stringify(fieldHistory(events, p)));
          expect(JSON.stringify(await queries.explain(id, p, at))).toBe(JSON.stringify(explainField(events, p)));
        }
      }
    }
    expect(checked).toBe(events * 2);
    // Every event of every recorded case, checked several ways: about a minute alone, over three on a busy 2-core machine.
  }, 600_000);

  it('the derived versions carry the times of the events that start and end them, one batch an event or many', async () => {
    // Each event of these cases in a batch of its own: versions end by the close of a stored row, not within a batch.
    const cases = ['incident-a-pod-set-image', 'incident-b-configmap-ghost-label', 'incident-d-hpa-scale-subresource', 'csa-to-ssa-upgrade-kubectl'];
    // Observed to the microsecond, as a watcher may report: `at=` compares (and the versions keep) whole milliseconds.
    const microseconds = (o: Observation): Observation => ({ ...o, observedAt: o.observedAt.replace(/(\.\d+)?Z$/, (m) => `${(m.length > 1 ? m.slice(0, -1) : '.000').padEnd(4, '0').slice(0, 4)}789Z`) });
    for (const c of cases) for (const o of caseObservations(c, 'times').observations) await appender.append([microseconds(o)]);
    expect((await ds.query(`SELECT count(*)::integer AS n FROM events WHERE date_trunc('milliseconds', observed_at) <> observed_at`))[0].n).toBeGreaterThan(0);
    await project();
    for (const table of ['findings_versions', 'manager_objects_versions']) {
      const ended = await ds.query(`SELECT count(*)::integer AS n FROM ${table} WHERE until_seq IS NOT NULL AND cluster = 'times'`);
      expect([table, ended[0].n > 0]).toEqual([table, true]);
      // Every row of the table (the other tests' too): its times are its events', to the millisecond.
      const wrong = await ds.query(
        `SELECT v.object_id, v.seq::text, v.until_seq::text FROM ${table} v
         WHERE v.at IS DISTINCT FROM (SELECT date_trunc('milliseconds', e.observed_at) FROM events e WHERE e.seq = v.seq)
            OR v.until_at IS DISTINCT FROM (SELECT date_trunc('milliseconds', e.observed_at) FROM events e WHERE e.seq = v.until_seq)`,
      );
      expect([table, wrong]).toEqual([table, []]);
    }
    for (const c of cases) await expectSameAsFold(await objectIdOf(`uid-times-${c}`), true);
  });

  it('the migration to baseline versions deletes the first observations\' rows the projector used to store', async () => {
    const { observations } = caseObservations('incident-b-configmap-ghost-label', 'migration');
    await appender.append(observations);
    await project();
    const id = await objectIdOf('uid-migration-incident-b-configmap-ghost-label');
    const all = await eventsOf(id);
    const baseline = evolveObjectOwnership(undefined, all[0]!).transitions;
    expect(baseline.length).toBeGreaterThan(0);
    // As the projector stored them before: one row per owned path and owner at the first event.
    await ds.query(
      `INSERT INTO field_transitions (generation, object_id, seq, ordinal, at, type, path, fields_v1_path, manager, operation, subresource, transition)
       SELECT (SELECT active FROM projection_generations), r.* FROM json_to_recordset($1::json) AS r(object_id text, seq bigint, ordinal integer, at timestamptz,
         type text, path text, fields_v1_path text, manager text, operation text, subresource text, transition json)`,
      [JSON.stringify(baseline.map((t, i) => transitionRow(t, i)))],
    );
    expect((await queries.transitions(id, undefined, undefined, 500)).items.length).toBe(foldObjectOwnership(all).transitions.length + baseline.length);
    const q = ds.createQueryRunner();
    try {
      await new BaselineTransitions1795500000000().up(q);
    } finally {
      await q.release();
    }
    const events = Number((await ds.query(`SELECT count(*) AS n FROM events WHERE object_id = $1`, [id]))[0].n);
    expect(events).toBe(all.length);
    expect([...(await queries.transitions(id, undefined, undefined, 500)).items].reverse()).toEqual(foldObjectOwnership(all).transitions);
  });

  it('an unreadable event, a deletion, out-of-order times and an at= past the projection: still the fold', async () => {
    const { observations } = caseObservations('incident-a-pod-set-image', 'edge');
    const [first, second, ...rest] = observations as [Observation, Observation, ...Observation[]];
    const broken: Observation = {
      ...second,
      object: { ...second.object, metadata: { ...second.object.metadata, resourceVersion: '1b', managedFields: [{ manager: 'x', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': 'not a set' } }] } },
    };
    // observedAt going back in time: the events up to that time are not a prefix of the history
    const early: Observation = { ...rest[0]!, observedAt: first.observedAt };
    await appender.append([first, broken]);
    await appender.append([second, early, ...rest.slice(1)]);
    const last = rest[rest.length - 1]!;
    await appender.append([{ ...last, type: 'DELETED', object: { ...last.object, metadata: { ...last.object.metadata, resourceVersion: 'gone' } } }]);
    await project();
    const id = await objectIdOf('uid-edge-incident-a-pod-set-image');
    const flags: { fold_required: boolean; deleted: boolean }[] = await ds.query(
      `SELECT fold_required, deleted FROM ownership_versions WHERE object_id = $1 ORDER BY seq`,
      [id],
    );
    expect(flags.some((f) => f.fold_required)).toBe(true);
    expect(flags[flags.length - 1]).toEqual({ fold_required: false, deleted: true });
    await expectSameAsFold(id, false); // versions answer where they can; an unreadable event needs the fold
    // The event back in time: the lists as of a time fold while this object is in the generation.
    expect(await ds.query(`SELECT ordered_through FROM ownership_states WHERE object_id = $1`, [id])).toEqual([{ ordered_through: null }]);
    // An unreadable event or an observation time going back: histories and explanations are folded, and equal the fold.
    const all = await eventsOf(id);
    for (const e of all) {
      const at: AsOf = { kind: 'time', time: e.observedAt, ms: Date.parse(e.observedAt) };
      const byTime = all.filter((x) => Date.parse(x.observedAt) <= Date.parse(e.observedAt));
      expect(await queries.fieldHistory(id, '.spec.containers[name="nginx-container"].image', at)).toEqual(fieldHistory(byTime, '.spec.containers[name="nginx-container"].image'));
      expect(await queries.explain(id, '.spec.containers[name="nginx-container"].image', at)).toEqual(explainField(byTime, '.spec.containers[name="nginx-container"].image'));
    }

    // Written after the projection ran, by an appender that leaves every event to the projector: answered by folding until projected, then from versions.
    await new EventAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture, null).append(observations.map((o) => ({ ...o, object: { ...o.object, metadata: { ...o.object.metadata, uid: 'late' } } })));
    const late = await objectIdOf('late');
    expect(await expectSameAsFold(late, false)).toBe(observations.length * 2);
    expect(await readSnapshotFromVersions(ds, late, { kind: 'seq', seq: '999999' })).toBeNull();
    await project();
    expect(await expectSameAsFold(late, true)).toBe(observations.length * 2);
    expect(await ds.query(`SELECT ordered_through = last_seq AS ordered FROM ownership_states WHERE object_id = $1`, [late])).toEqual([{ ordered: true }]);
    await expect(queries.snapshot(id, { kind: 'seq', seq: '0' })).rejects.toMatchObject({ code: 'object-not-found' });

    // GET /v1/objects?manager&at: the objects whose snapshot then has the manager owning a field, page by page; folded only where versions cannot answer.
    const snapshots = jest.spyOn(queries, 'snapshot');
    let unanswered = 0; // (object, at) pairs with events by then that versions cannot answer
    try {
      for (const e of [...all, ...(await eventsOf(late))]) {
        for (const at of [{ kind: 'seq', seq: String(e.seq) }, { kind: 'time', time: e.observedAt, ms: Date.parse(e.observedAt) }] as AsOf[]) {
          for (const o of [id, late]) if ((await readSnapshotFromVersions(ds, o, at)) === null) unanswered++;
          for (const manager of ['kubectl', 'kubectl-set', 'x']) {
            const expected: string[] = [];
            for (const o of [id, late].sort()) {
              const s = await queries.snapshot(o, at).catch(() => null);
              if (s && managerOwnsAField(s.fields, manager)) expected.push(o);
            }
            const listed: string[] = [];
            let cursor: string | undefined;
            do {
              const page = await queries.listObjects({ cluster: 'edge', manager }, at, cursor, 1);
              listed.push(...page.items.map((i) => i.id));
              cursor = page.nextCursor ?? undefined;
            } while (cursor);
            expect([at, manager, listed]).toEqual([at, manager, expected]);
          }
        }
      }
      // Besides the references' reads, the list read a snapshot exactly where versions cannot answer (an unreadable event, a time that is not a prefix), once a manager.
      expect(unanswered).toBeGreaterThan(0);
      expect(snapshots.mock.calls.length - (all.length + observations.length) * 2 * 3 * 2).toBe(unanswered * 3);
    } finally {
      snapshots.mockRestore();
    }

    // An object first observed after a later event of it: as of that later event's time it is listed, from that event alone.
    const backwards = caseObservations('incident-d-hpa-scale-subresource', 'edge').observations.map((o, i, all) => ({
      ...o,
      observedAt: new Date(Date.parse(all[all.length - 1]!.observedAt) + 60_000 - i * 1_000).toISOString(),
      object: { ...o.object, metadata: { ...o.object.metadata, uid: 'backwards' } },
    }));
    await appender.append(backwards);
    await project();
    const objects = [id, late, await objectIdOf('backwards')];
    const histories = await Promise.all(objects.map(eventsOf));
    // Managers and findings of the cluster as of every time an event was observed, as folding each object's events by then gives them.
    for (const ms of [...new Set(histories.flat().map((e) => Date.parse(e.observedAt)))]) {
      const at: AsOf = { kind: 'time', time: new Date(ms).toISOString(), ms };
      const states = histories.map((h) => h.filter((e) => Date.parse(e.observedAt) <= ms)).filter((h) => h.length > 0).map((h) => foldObjectOwnership(h).state!);
      const totals = new ManagerTotals();
      for (const st of states) totals.add(st);
      expect([at.time, (await queries.managers(at, undefined, 500, undefined, 'edge')).items]).toEqual([at.time, totals.summaries()]);
      expect([at.time, (await queries.findings({ at, cluster: 'edge' }, undefined, 500)).items]).toEqual([at.time, findings(states)]);
    }
  });
});
