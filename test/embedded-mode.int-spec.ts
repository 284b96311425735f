import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../libs/config/src/index.js';
import { IngestProducer } from '../libs/queue/src/index.js';
import { deploymentObservation, freePort, waitFor } from '../libs/testing/src/index.js';
import { startApplication, type RunningApplication } from '../apps/bootstrap.js';

// No DATABASE_URL, no REDIS_URL: PGlite under a data directory and in-process jobs, same code paths.

describe('embedded mode (PGlite + in-process jobs)', () => {
  let dataDir: string;
  let app: RunningApplication | undefined;

  const start = async () => {
    const config = loadConfig({ DATA_DIR: dataDir, PORT: String(await freePort()), LOG_LEVEL: 'silent' });
    expect(config.database.kind).toBe('embedded');
    expect(config.queue.transport.driver).toBe('in-process');
    app = await startApplication(config, { roles: ['api', 'worker', 'watcher'], migrate: true });
    return app;
  };
  const get = async (path: string) => {
    const r = await fetch(`${app!.url}${path}`);
    return { status: r.status, body: r.headers.get('content-type')?.includes('json') ? await r.json() : await r.text() };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ssa-audit-embedded-'));
  });
  afterAll(async () => {
    await app?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts, is ready, ingests and serves the events, and keeps them across a restart', async () => {
    await start();
    expect((await get('/healthz')).status).toBe(200);
    const ready = await get('/readyz');
    expect(ready).toEqual({ status: 200, body: { status: 'ok', checks: { database: { status: 'ok', kind: 'embedded' }, queue: { status: 'ok', kind: 'in-process' }, lanes: { status: 'ok', kind: 'ingest lanes' } }, clusters: expect.any(Object) } });

    const producer = app!.app.get(IngestProducer);
    await producer.enqueue([
      deploymentObservation({ uid: 'emb-1', resourceVersion: '1', type: 'ADDED' }),
      deploymentObservation({ uid: 'emb-1', resourceVersion: '2', time: '2026-11-21T11:00:00Z' }), // time-only: not stored
      deploymentObservation({ uid: 'emb-1', resourceVersion: '3', replicas: 7 }),
      deploymentObservation({ uid: 'emb-2', resourceVersion: '1', type: 'ADDED' }),
    ]);
    const listed = await waitFor('events to be readable', async () => {
      const r = await get('/v1/events?limit=10');
      return (r.body as { items: unknown[] }).items.length === 3 ? r.body : null;
    });
    const events = (listed as { items: { uid: string; resourceVersion: string; type: string }[] }).items;
    expect(events.map((e) => `${e.uid}@${e.resourceVersion}`).sort()).toEqual(['emb-1@1', 'emb-1@3', 'emb-2@1']);
    const metrics = (await get('/metrics')).body as string;
    expect(metrics).toMatch(/ssa_audit_observations_total\{outcome="unchanged"\} 1/);
    expect(metrics).toMatch(/ssa_audit_observations_total\{outcome="stored"\} 3/);

    await app!.close();
    app = undefined;
    await start(); // same data directory: migrations are a no-op, the events are still there
    const again = (await get('/v1/events?limit=10')).body as { items: unknown[] };
    expect(again.items).toHaveLength(3);

    // A replay through the in-process queue, followed with GET /v1/replays/{jobId}.
    const requested = await fetch(`${app!.url}/v1/replays`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scope: { kind: 'all' } }) });
    expect(requested.status).toBe(202);
    const { jobId } = (await requested.json()) as { jobId: string };
    const done = await waitFor('the replay completed', async () => {
      const r = await get(`/v1/replays/${jobId}`);
      expect(r.status).toBe(200);
      return (r.body as { state: string }).state === 'completed' ? r.body : null;
    });
    expect(done).toMatchObject({ jobId, scope: { kind: 'all' }, progress: { events: 3, percent: 100 }, result: { events: 3, objects: 2 }, failedReason: null });
    expect((await get('/v1/replays/replay-00000000000000000000000000000000')).status).toBe(404);

    // Owner reads as of an earlier event come from the ownership versions on PGlite too.
    const object = ((await get('/v1/objects?name=web-emb-1')).body as { items: { id: string }[] }).items[0]!;
    const seqs = (again.items as { uid: string; seq: string }[]).filter((e) => e.uid === 'emb-1').map((e) => e.seq).sort((a, b) => Number(a) - Number(b));
    const replicas = async (at?: string) =>
      (await get(`/v1/objects/${object.id}/fields?path=.spec.replicas${at ? `&at=${at}` : ''}`)).body as { value: unknown; owners: { manager: string }[] };
    expect(await replicas(seqs[0])).toMatchObject({ value: 3, owners: [{ manager: 'horizontal-pod-autoscaler' }] });
    expect(await replicas()).toMatchObject({ value: 7, owners: [{ manager: 'horizontal-pod-autoscaler' }] });
  });
});
