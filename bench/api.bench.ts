/**
 * `npm run bench:api`: events of many Deployments appended and projected, then p50/p99 latency of
 * the `fields` (at a given sequence), `history`, `explain` and `objects` queries under concurrent
 * HTTP clients. Sizes from the environment (BENCH_OBJECTS, BENCH_EVENTS_PER_OBJECT, BENCH_CLIENTS,
 * BENCH_REQUESTS); the target size is 200,000 objects × 50 events.
 * Needs the machine's Postgres and Redis (TEST_DATABASE_ADMIN_URL, TEST_REDIS_URL); uses a throw-away database.
 */
import { createServer } from 'node:net';
import { loadConfig } from '../libs/config/src/index.js';
import { createDataSource, EventAppender, OwnershipProjector } from '../libs/store/src/index.js';
import { createTestContext, deploymentObservation } from '../libs/testing/src/index.js';
import { startApplication } from '../apps/bootstrap.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const OBJECTS = num('BENCH_OBJECTS', 2000);
const EVENTS = num('BENCH_EVENTS_PER_OBJECT', 5);
const CLIENTS = num('BENCH_CLIENTS', 50);
const REQUESTS = num('BENCH_REQUESTS', 2000);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function main(): Promise<void> {
  const ctx = await createTestContext('bench_api');
  const ds = await createDataSource(ctx.database.url, 4).initialize();
  try {
    const appender = new EventAppender(ds, loadConfig({}).capture);
    let t = Date.now();
    for (let v = 1; v <= EVENTS; v++) {
      for (let i = 0; i < OBJECTS; i += 500) {
        const batch = [];
        for (let k = i; k < Math.min(OBJECTS, i + 500); k++) {
          const time = new Date(Date.UTC(2026, 10, 21, 10, v)).toISOString().replace('.000Z', 'Z');
          batch.push(deploymentObservation({ uid: `bench-${k}`, resourceVersion: String(v), replicas: v, image: `registry.example.com/web:1.${v}`, time, observedAt: time }));
        }
        await appender.append(batch);
      }
    }
    const appendS = (Date.now() - t) / 1000;
    t = Date.now();
    // Readers stop before the oldest open transaction of the whole server: wait out other databases' transactions.
    const projected = await new OwnershipProjector(ds).catchUp({ waitForHeldBackMs: 120_000 });
    const projectS = (Date.now() - t) / 1000;
    console.log(`${OBJECTS} objects × ${EVENTS} events: appended in ${appendS.toFixed(1)} s, projected ${projected.events} events in ${projectS.toFixed(1)} s (${Math.round(projected.events / projectS)} events/s)`);

    const app = await startApplication(ctx.config({ PORT: String(await freePort()), LOG_LEVEL: 'silent' }), { roles: ['api'], migrate: false });
    const ids: string[] = (await ds.query(`SELECT object_id FROM ownership_states`)).map((r: { object_id: string }) => r.object_id);
    const midSeq = String(Math.floor(Number((await ds.query(`SELECT max(seq) AS s FROM events`))[0].s) / 2));
    const image = encodeURIComponent('.spec.template.spec.containers[name="app"].image');
    const kinds: Record<string, (id: string) => string> = {
      fields: (id) => `/v1/objects/${id}/fields?path=.spec.replicas`,
      'fields at=': (id) => `/v1/objects/${id}/fields?path=.spec.replicas&at=${midSeq}`,
      history: (id) => `/v1/objects/${id}/fields/history?path=${image}`,
      explain: (id) => `/v1/objects/${id}/explain?path=${image}`,
      objects: () => `/v1/objects?kind=Deployment&limit=100`,
    };
    console.log(`| query | requests | clients | p50 ms | p99 ms | req/s |`);
    console.log(`| --- | ---: | ---: | ---: | ---: | ---: |`);
    for (const [name, url] of Object.entries(kinds)) {
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < REQUESTS) {
            const i = next++;
            const s = performance.now();
            const res = await fetch(app.url + url(ids[i % ids.length]!));
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
            latencies.push(performance.now() - s);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      console.log(`| ${name} | ${REQUESTS} | ${CLIENTS} | ${pct(latencies, 0.5).toFixed(1)} | ${pct(latencies, 0.99).toFixed(1)} | ${Math.round(REQUESTS / seconds)} |`);
    }
    await app.close();
  } finally {
    await ds.destroy();
    await ctx.dispose();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
