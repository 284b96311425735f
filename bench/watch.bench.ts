/**
 * `npm run bench:watch [-- --objects 50000 --seconds 20 --writes 500]`: a sandbox holding N objects
 * across 10 kinds, the built watcher as a child process (BullMQ on the machine's Redis, no worker, so
 * the queue takes everything), then a steady write load. Prints the initial list time, observations/s
 * into the queue (initial list and steady phase), and the watcher's memory.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../libs/sandbox/src/index.js';
import { createTestContext, freePort, waitFor } from '../libs/testing/src/index.js';
import { BENCH_KINDS as KINDS, fillSandbox, machine, metric, resourcesInclude } from './bench-support.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const OBJECTS = arg('objects', 50_000);
const SECONDS = arg('seconds', 20);
const WRITES_PER_SECOND = arg('writes', 500);
// The sandbox answers each page by cloning and filtering the whole collection (O(n) per page), so small
// pages make the sandbox, not the watcher, the bottleneck of a big list; real apiservers page from a cursor.
const PAGE_SIZE = arg('page-size', 5000);

async function main(): Promise<void> {
  console.log(`machine: ${machine()}`);
  console.log(`objects: ${OBJECTS} across ${KINDS.length} kinds; page size ${PAGE_SIZE}; steady phase: ${SECONDS} s at ${WRITES_PER_SECOND} writes/s`);
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-watch-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const sb = await startSandbox({ port: 0, kubeconfigPath: kubeconfig, historySize: 200_000 });
  const ctx = await createTestContext('bench-watch');
  const perKind = Math.ceil(OBJECTS / KINDS.length);
  const { rts, seconds: fillSeconds } = fillSandbox(sb.cluster, KINDS, perKind);
  console.log(`sandbox filled: ${perKind * KINDS.length} objects in ${fillSeconds.toFixed(1)} s`);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = ctx.env({
    KUBECONFIG: kubeconfig,
    WATCHER_PORT: String(port),
    LEADER_ELECTION: 'false',
    RESOURCES_INCLUDE: resourcesInclude(KINDS),
    WATCH_MAX_QUEUE_DEPTH: '1000000',
    WATCH_PAGE_SIZE: String(PAGE_SIZE),
    LOG_LEVEL: 'warn',
  });
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/apps/main.js', 'watcher'], { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const scrape = async () => (await fetch(`${url}/metrics`)).text();
  let peakRss = 0;
  const sampler = setInterval(() => {
    scrape().then((t) => (peakRss = Math.max(peakRss, metric(t, 'ssa_audit_process_resident_memory_bytes') || 0)), () => undefined);
  }, 250);
  try {
    await waitFor('watcher ready', async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200, 600_000, 100);
    const readyAt = performance.now();
    const total = perKind * KINDS.length;
    await waitFor('initial list enqueued', async () => metric(await scrape(), 'ssa_audit_watch_observations_enqueued_total') >= total, 600_000, 100);
    const listedAt = performance.now();
    const afterList = await scrape();
    const listCpu = metric(afterList, 'ssa_audit_process_cpu_seconds_total');
    const listSeconds = metric(afterList, 'ssa_audit_watch_initial_list_seconds');
    console.log(`initial list: ${total} objects; every resource listed ${listSeconds.toFixed(2)} s after watching began (${((readyAt - started) / 1000).toFixed(2)} s from process start, boot included); all enqueued ${((listedAt - started) / 1000).toFixed(2)} s from process start`);
    console.log(`  → ${(total / listSeconds).toFixed(0)} observations/s into the queue during the initial list (sandbox in the same run; load average ${loadavg()[0]!.toFixed(1)})`);
    console.log(`  watcher CPU from process start to the end of the list (boot included): ${listCpu.toFixed(1)} s → ${(total / listCpu).toFixed(0)} observations per watcher CPU-second`);
    console.log(`  watcher memory after the list: RSS ${(metric(afterList, 'ssa_audit_process_resident_memory_bytes') / 2 ** 20).toFixed(0)} MiB, heap used ${(metric(afterList, 'ssa_audit_nodejs_heap_size_used_bytes') / 2 ** 20).toFixed(0)} MiB`);

    // Steady phase: writes spread over every kind, paced to WRITES_PER_SECOND.
    const beforeText = await scrape();
    const before = metric(beforeText, 'ssa_audit_watch_observations_enqueued_total');
    const cpuBefore = metric(beforeText, 'ssa_audit_process_cpu_seconds_total');
    const steadyStart = performance.now();
    let writes = 0;
    while (performance.now() - steadyStart < SECONDS * 1000) {
      const due = Math.floor(((performance.now() - steadyStart) / 1000) * WRITES_PER_SECOND);
      for (; writes < due; writes++) {
        const j = writes % KINDS.length;
        const name = `o-${Math.floor(writes / KINDS.length) % perKind}`;
        sb.cluster.patch({ resource: rts[j]!, namespace: 'default', name }, '', 'merge', JSON.stringify({ metadata: { labels: { rev: String(writes) } } }), { fieldManager: 'bench-writer' });
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    const offered = writes / SECONDS;
    await waitFor('steady writes enqueued', async () => metric(await scrape(), 'ssa_audit_watch_observations_enqueued_total') >= before + writes, 120_000, 50);
    const drainedAt = performance.now();
    const steadySeconds = (drainedAt - steadyStart) / 1000;
    const end = await scrape();
    const steadyCpu = metric(end, 'ssa_audit_process_cpu_seconds_total') - cpuBefore;
    console.log(`steady phase: ${writes} writes in ${SECONDS} s (${offered.toFixed(0)}/s offered); all enqueued ${(steadySeconds - SECONDS).toFixed(2)} s after the last write → ${(writes / steadySeconds).toFixed(0)} observations/s sustained`);
    console.log(`  watcher CPU in the steady phase: ${steadyCpu.toFixed(1)} s → ${(writes / steadyCpu).toFixed(0)} observations per watcher CPU-second (watch events arrive one by one)`);
    console.log(`watcher memory at the end: RSS ${(metric(end, 'ssa_audit_process_resident_memory_bytes') / 2 ** 20).toFixed(0)} MiB (peak ${(peakRss / 2 ** 20).toFixed(0)} MiB), heap used ${(metric(end, 'ssa_audit_nodejs_heap_size_used_bytes') / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    clearInterval(sampler);
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    await exited;
    await sb.close();
    await ctx.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
