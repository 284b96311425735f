import type { DataSource } from 'typeorm';
import { defaultSchemaResolver, explainField, fieldHistory, resolvePath, foldObjectOwnership, ownershipTree, type ObservedEvent, type OwnershipNode } from '../../../audit/src/index.js';
import type { Observation } from '../../../common/src/index.js';
import { loadConfig } from '../../../config/src/index.js';
import { TEST_SENSITIVE_HASH_KEY, createTestDatabase, deploymentObservation, type TestDatabase } from '../../../testing/src/index.js';
import { createDataSource } from '../database/database.js';
import { EventReader } from '../events/event-reader.js';
import { ObservedEventLoader } from '../events/observed-event.loader.js';
import { foldingAppender, projectorOn } from '../testing/worker-use-cases.js';
import { patchFilterOf } from '../ingest/body-values.util.js';
import { projectedExplanation, projectedFieldHistory, readPathValueChanges, readSummarizedChanges } from './path-value-changes.query.js';
import { OwnershipQueries } from './ownership-queries.js';

// `fields/history` and `explain` read from the events at which a path's value can change must be the fold's, byte for byte,
// over histories long enough to hold several snapshots and values that change, come back and go.

const UID = '00000000-0000-4000-8000-00000000c0de';
const GONE_UID = '00000000-0000-4000-8000-00000000dead';
const RETAINED_UID = '00000000-0000-4000-8000-00000000beef';
const EVENTS = 75;

/** Event `i` of the long history: the image every 7th event (back to an older one every 3rd change), replicas every 11th, an annotation and the status at each. */
function observation(uid: string, i: number, type: Observation['type']): Observation {
  const at = new Date(Date.UTC(2026, 10, 28, 10, 0, i)).toISOString();
  const change = Math.floor(i / 7);
  const o = deploymentObservation({
    uid, name: `history-${uid.slice(-4)}`, resourceVersion: String(1000 + i), type, time: at, observedAt: at,
    image: `registry.example.com/web:1.${change % 3 === 2 ? change - 2 : change}`,
    replicas: 2 + (Math.floor(i / 11) % 3),
    status: { replicas: 3, readyReplicas: i % 4, availableReplicas: 3, updatedReplicas: 3, observedGeneration: 3 + i },
  });
  const metadata = o.object.metadata as unknown as { annotations: Record<string, string>; labels: Record<string, string> };
  metadata.annotations = { ...metadata.annotations, 'deployment.kubernetes.io/revision': String(3 + i) };
  // A label present only between events 20 and 40: a path that comes and goes.
  if (i >= 20 && i < 40) metadata.labels = { ...metadata.labels, canary: 'true' };
  // A key with what LIKE patterns and JSON escape (`%`, `_`, `\`, `"`), changing every 9th event.
  metadata.labels = { ...metadata.labels, 'odd_%\\"key': `v${Math.floor(i / 9)}` };
  return o;
}

function pathsOf(events: readonly ObservedEvent[]): string[] {
  const out: string[] = [];
  const walk = (n: OwnershipNode): void => {
    if (n.path !== '') out.push(n.path);
    n.children.forEach(walk);
  };
  walk(ownershipTree(foldObjectOwnership(events).state!));
  return [...out, '.metadata.labels.canary', 'f:metadata.f:labels.f:odd_%\\"key', '.spec.nobodyOwnsThis', '.status.readyReplicas'];
}

describe('fields/history and explain from the events at which the path can change (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let queries: OwnershipQueries;
  let reader: EventReader;
  let loader: ObservedEventLoader;

  beforeAll(async () => {
    db = await createTestDatabase('history-changes');
    ds = await createDataSource(db.url, 4).initialize();
    queries = new OwnershipQueries(ds);
    reader = new EventReader(ds);
    loader = new ObservedEventLoader(ds);
    const appender = foldingAppender(ds, loadConfig({ SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY }).capture);
    for (let i = 0; i < EVENTS; i++) await appender.append([observation(UID, i, i === 0 ? 'ADDED' : 'MODIFIED')]);
    for (let i = 0; i < 30; i++) await appender.append([observation(GONE_UID, i, i === 0 ? 'ADDED' : i === 29 ? 'DELETED' : 'MODIFIED')]);
    for (let i = 0; i < 50; i++) await appender.append([observation(RETAINED_UID, i, i === 0 ? 'ADDED' : 'MODIFIED')]);
    await projectorOn(ds).catchUp({ waitForHeldBackMs: 60_000 });
  }, 120_000);
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const objectIdOf = async (uid: string): Promise<string> => (await ds.query(`SELECT id::text AS id FROM objects WHERE uid = $1`, [uid]))[0].id;

  // Before the case that clears the summaries: this reads the rows as the appender wrote them.
  it('reads the events at which the value can change, not every event', async () => {
    const id = await objectIdOf(UID);
    const [{ last }] = await ds.query(`SELECT max(seq)::text AS last FROM events WHERE object_id = $1`, [id]);
    const image = resolvePath('.spec.template.spec.containers[name="app"].image', defaultSchemaResolver('apps/v1', 'Deployment', 'test-cluster').type);
    const rows = await readPathValueChanges(ds, id, last, { fieldsV1Path: image.fieldsV1Path, filter: patchFilterOf(image.elements)! });
    // The snapshots, and the patches whose operations on the containers differ from the event's before (the image changes every 7th event).
    const snapshots = Number((await ds.query(`SELECT count(*)::int AS n FROM events WHERE object_id = $1 AND body_encoding = 'full'`, [id]))[0].n);
    expect(rows.length).toBeGreaterThanOrEqual(snapshots);
    expect(rows.length).toBeLessThanOrEqual(snapshots + Math.ceil(EVENTS / 7) * 2);
    // An annotation every event: every patch reaches it, so each is read.
    const annotation = resolvePath('.metadata.annotations', undefined);
    expect((await readPathValueChanges(ds, id, last, { fieldsV1Path: annotation.fieldsV1Path, filter: patchFilterOf(annotation.elements)! })).length).toBe(EVENTS);
    // From the summaries of what changed: the events where the image changes (and the snapshots those patches are on), not every snapshot.
    const summarized = await readSummarizedChanges(ds, id, last, { fieldsV1Path: image.fieldsV1Path, at: patchFilterOf(image.elements)!.at });
    const changes = summarized!.filter((r) => r.changes);
    expect(changes.length).toBeGreaterThanOrEqual(Math.ceil(EVENTS / 7));
    expect(changes.length).toBeLessThan(snapshots + Math.ceil(EVENTS / 7));
    expect(summarized!.length).toBeLessThanOrEqual(2 * changes.length);
    expect(summarized!.length).toBeLessThanOrEqual(rows.length);
    const everyEvent = await readSummarizedChanges(ds, id, last, { fieldsV1Path: annotation.fieldsV1Path, at: patchFilterOf(annotation.elements)!.at });
    expect(everyEvent!.filter((r) => r.changes).length).toBe(EVENTS);
  });

  it.each([
    ['a long history with several snapshots', UID, 'as written'],
    ['a history ending in a deletion', GONE_UID, 'as written'],
    // As histories appended before the summaries were written: first without the summaries of what changed
    // (every patch whose paths' summary has a bit of the path is read), then without either (filtered by their text).
    ['a long history without summaries of what changed', UID, 'without change summaries'],
    ['a long history whose patches have no summary of their paths', UID, 'without any summary'],
  ] as const)('equals the fold at every path and every tenth event: %s', async (_name, uid, summaries) => {
    const id = await objectIdOf(uid);
    const [counts] = await ds.query(`SELECT count(*)::int AS events, count(change_paths)::int AS changes, count(patch_paths)::int AS patches FROM events WHERE object_id = $1`, [id]);
    expect(counts.patches).toBeGreaterThan(0);
    // Every event the appender wrote has its summary of what changed (the third case clears one, the fourth all).
    if (summaries === 'as written') expect(counts.changes).toBe(counts.events);
    if (summaries !== 'as written') await ds.query(`UPDATE events SET change_paths = NULL WHERE object_id = $1 AND seq = (SELECT min(seq) FROM events WHERE object_id = $1)`, [id]);
    if (summaries === 'without any summary') await ds.query(`UPDATE events SET patch_paths = NULL, change_paths = NULL WHERE object_id = $1`, [id]);
    const all = await loader.load(await reader.objectHistory(id));
    expect(all.length).toBeGreaterThan(20);
    // Several snapshots: the history crosses the snapshot spacing.
    expect(Number((await ds.query(`SELECT count(*)::int AS n FROM events WHERE object_id = $1 AND body_encoding = 'full'`, [id]))[0].n)).toBeGreaterThan(1);
    let answered = 0;
    const bounds = [...new Set([...Array.from({ length: Math.ceil(all.length / 10) }, (_, k) => 2 + 10 * k).filter((n) => n <= all.length), all.length])];
    for (const upTo of bounds) {
      const events = all.slice(0, upTo);
      const seq = String(events[events.length - 1]!.seq);
      for (const p of pathsOf(events)) {
        const direct = await projectedFieldHistory(ds, id, p, seq, defaultSchemaResolver);
        const folded = JSON.stringify(fieldHistory(events, p));
        // Answered from the changes (not left to the fold), except where the value is not the stored body's.
        if (p !== '.metadata') {
          expect([p, upTo, direct === null]).toEqual([p, upTo, false]);
          answered++;
        }
        if (direct !== null && direct !== 'no-event') expect([p, upTo, JSON.stringify(direct)]).toEqual([p, upTo, folded]);
        expect([p, upTo, JSON.stringify(await queries.fieldHistory(id, p, { kind: 'seq', seq }))]).toEqual([p, upTo, folded]);
        const explained = await projectedExplanation(ds, reader, loader, id, p, seq, defaultSchemaResolver);
        const foldedExplanation = JSON.stringify(explainField(events, p));
        if (p !== '.metadata') expect([p, upTo, explained === null]).toEqual([p, upTo, false]);
        if (explained !== null && explained !== 'no-event') expect([p, upTo, JSON.stringify(explained)]).toEqual([p, upTo, foldedExplanation]);
        expect([p, upTo, JSON.stringify(await queries.explain(id, p, { kind: 'seq', seq }))]).toEqual([p, upTo, foldedExplanation]);
      }
    }
    expect(answered).toBeGreaterThan(100);
    // The odd key's values are read (one every 9th event), not missed.
    const odd = await queries.fieldHistory(id, 'f:metadata.f:labels.f:odd_%\\"key');
    const deleted = all.at(-1)!.watchType === 'DELETED';
    expect(odd.values.length).toBe(Math.floor((all.length - (deleted ? 2 : 1)) / 9) + 1 + (deleted ? 1 : 0));
  }, 300_000);

  it('counts the first event kept as a change where retention dropped the ones before it', async () => {
    const id = await objectIdOf(RETAINED_UID);
    const snapshots: { seq: string }[] = await ds.query(`SELECT seq::text AS seq FROM events WHERE object_id = $1 AND body_encoding = 'full' ORDER BY seq`, [id]);
    expect(snapshots.length).toBeGreaterThan(1);
    const kept = snapshots[1]!.seq;
    // The replicas do not change at that snapshot (every 11th event): its summary has none of their bits.
    const replicas = resolvePath('.spec.replicas', defaultSchemaResolver('apps/v1', 'Deployment', 'test-cluster').type);
    const at = patchFilterOf(replicas.elements)!.at;
    const [{ last }] = await ds.query(`SELECT max(seq)::text AS last FROM events WHERE object_id = $1`, [id]);
    const before = await readSummarizedChanges(ds, id, last, { fieldsV1Path: replicas.fieldsV1Path, at });
    expect(before!.find((r) => r.seq === kept)?.changes ?? false).toBe(false);
    await ds.query(`DELETE FROM events WHERE object_id = $1 AND seq < $2`, [id, kept]);
    const after = await readSummarizedChanges(ds, id, last, { fieldsV1Path: replicas.fieldsV1Path, at });
    expect(after!.filter((r) => r.changes)[0]!.seq).toBe(kept);
  });

  it('answers an unknown object and a sequence before the first event as no event', async () => {
    const id = await objectIdOf(UID);
    expect(await projectedFieldHistory(ds, '999999999', '.spec.replicas', undefined, defaultSchemaResolver)).toBe('no-event');
    expect(await projectedFieldHistory(ds, id, '.spec.replicas', '0', defaultSchemaResolver)).toBe('no-event');
    expect(await projectedExplanation(ds, reader, loader, '999999999', '.spec.replicas', undefined, defaultSchemaResolver)).toBe('no-event');
  });
});
