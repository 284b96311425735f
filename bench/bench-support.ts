/** Small helpers shared by the benchmarks: timing, percentiles, memory, machine description. */
import { cpus, totalmem } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Observation } from '../libs/common/src/index.js';
import type { Cluster, ResourceType } from '../libs/sandbox/src/index.js';
import { deploymentObservation } from '../libs/testing/src/observation.factory.js';

export interface Stats {
  readonly name: string;
  readonly ops: number;
  readonly meanUs: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly opsPerSec: number;
}

/** The `p` quantile (0–1) of ascending samples. */
export function pct(sorted: ArrayLike<number>, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/**
 * Times `fn(i)` for every i in [0, n) individually, `rounds` times (the first round warms up and
 * is discarded). Returns mean and percentiles of the per-call latency.
 */
export function measure(name: string, n: number, fn: (i: number) => void, rounds = 5): Stats {
  for (let i = 0; i < n; i++) fn(i);
  const samples = new Float64Array(n * rounds);
  let k = 0;
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < n; i++) {
      const s = performance.now();
      fn(i);
      samples[k++] = performance.now() - s;
    }
  }
  const total = performance.now() - t0;
  samples.sort();
  const ops = n * rounds;
  return {
    name,
    ops,
    meanUs: (total * 1000) / ops,
    p50Us: pct(samples, 0.5) * 1000,
    p99Us: pct(samples, 0.99) * 1000,
    opsPerSec: ops / (total / 1000),
  };
}

export function printTable(rows: readonly Stats[]): void {
  const pad = (s: string, n: number) => s.padStart(n);
  console.log(`${'operation'.padEnd(44)} ${pad('mean µs', 9)} ${pad('p50 µs', 9)} ${pad('p99 µs', 9)} ${pad('ops/s', 12)}`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(44)} ${pad(r.meanUs.toFixed(2), 9)} ${pad(r.p50Us.toFixed(2), 9)} ${pad(r.p99Us.toFixed(2), 9)} ${pad(Math.round(r.opsPerSec).toLocaleString('en-US'), 12)}`,
    );
  }
}

export function heapMiB(): string {
  const m = process.memoryUsage();
  return `heap used ${(m.heapUsed / 2 ** 20).toFixed(1)} MiB, rss ${(m.rss / 2 ** 20).toFixed(1)} MiB`;
}

export function machine(): string {
  const c = cpus();
  return `${c.length} × ${c[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

/** The recorded conformance cases, parsed (the fixed, reproducible benchmark input). */
export function loadCases(dir = resolve('../shared/conformance/cases')): { file: string; data: any }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ file: f, data: JSON.parse(readFileSync(join(dir, f), 'utf8')) }));
}

/** Deterministic 30 % of the observations after the first round are time-only changes. */
const timeOnly = (i: number, round: number) => round > 0 && ((i * 2654435761 + round * 40503) >>> 0) % 100 < 30;

export interface DeploymentStreamOptions {
  readonly objects: number;
  /** Rounds of changes after the first observation of every object. */
  readonly rounds: number;
  /** Observations per yielded chunk. */
  readonly chunk: number;
  /** The observation time of a round's observations. */
  readonly observedAt: (round: number) => string;
}

/**
 * The benchmarks' synthetic watch stream: Deployments with ~2 KiB of managedFields (3 managers),
 * every object once per round in object order; after the first round, 70 % of observations change
 * replicas and image and 30 % change only managedFields times.
 */
export function* deploymentStream(o: DeploymentStreamOptions): Generator<Observation[]> {
  const state = new Int32Array(o.objects); // changes per object
  for (let round = 0; round <= o.rounds; round++) {
    for (let start = 0; start < o.objects; start += o.chunk) {
      const out: Observation[] = [];
      const observedAt = o.observedAt(round);
      for (let i = start; i < Math.min(o.objects, start + o.chunk); i++) {
        if (round > 0 && !timeOnly(i, round)) state[i]! += 1;
        out.push(deploymentObservation({
          cluster: 'bench', uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, name: `web-${i}`, namespace: `ns-${i % 50}`,
          resourceVersion: String(round * o.objects + i + 1), type: round === 0 ? 'ADDED' : 'MODIFIED',
          replicas: 1 + (state[i]! % 10), image: `registry.example.com/web:1.${state[i]}`,
          time: new Date(Date.UTC(2026, 10, 21, 10, round)).toISOString(), observedAt,
        }));
      }
      yield out;
    }
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 1/100 s). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** The peak resident memory of a process, from /proc. */
export function peakRssMiB(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN;
  }
}

/** A kind the benchmarks create in the sandbox: its resource and a small body for a name. */
export interface BenchKind {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly body: (name: string) => unknown;
}

/** Ten built-in kinds with small bodies (bench:watch, bench:pipeline --kinds all); the first is ConfigMap. */
export const BENCH_KINDS: readonly BenchKind[] = [
  { group: '', version: 'v1', plural: 'configmaps', body: (n: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, labels: { app: n } }, data: { key: n } }) },
  { group: '', version: 'v1', plural: 'secrets', body: (n: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: n }, stringData: { password: n } }) },
  { group: '', version: 'v1', plural: 'serviceaccounts', body: (n: string) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: n, labels: { app: n } } }) },
  { group: '', version: 'v1', plural: 'services', body: (n: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: n }, spec: { selector: { app: n }, ports: [{ port: 80 }] } }) },
  { group: '', version: 'v1', plural: 'pods', body: (n: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: n, labels: { app: n } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } }) },
  ...(['deployments', 'replicasets', 'statefulsets', 'daemonsets'] as const).map((plural) => ({
    group: 'apps',
    version: 'v1',
    plural,
    body: (n: string) => ({
      apiVersion: 'apps/v1',
      kind: { deployments: 'Deployment', replicasets: 'ReplicaSet', statefulsets: 'StatefulSet', daemonsets: 'DaemonSet' }[plural],
      metadata: { name: n, labels: { app: n } },
      spec: { selector: { matchLabels: { app: n } }, template: { metadata: { labels: { app: n } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } },
    }),
  })),
  { group: 'batch', version: 'v1', plural: 'cronjobs', body: (n: string) => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: n }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox' }] } } } } } }) },
];

/** `RESOURCES_INCLUDE` for the given kinds. */
export function resourcesInclude(kinds: readonly BenchKind[]): string {
  return kinds.map((k) => (k.group ? `${k.plural}.${k.group}` : k.plural)).join(',');
}

/**
 * Creates `perKind` objects of every kind in namespace `default` (`o-0`, `o-1`, …, kinds
 * interleaved) through the sandbox's own verbs (engine-made managedFields, manager `bench`).
 * Returns the resource types (in the order of `kinds`) and the seconds it took.
 */
export function fillSandbox(cluster: Cluster, kinds: readonly BenchKind[], perKind: number): { rts: ResourceType[]; seconds: number } {
  const t0 = performance.now();
  const rts = kinds.map((k) => cluster.resourceFor(k.group, k.version, k.plural)!);
  for (let i = 0; i < perKind; i++) {
    kinds.forEach((k, j) => cluster.create(rts[j]!, 'default', k.body(`o-${i}`), { fieldManager: 'bench' }));
  }
  return { rts, seconds: (performance.now() - t0) / 1000 };
}

/** A sample's value from Prometheus text (the first series of that name), NaN when absent. */
export function metric(text: string, name: string): number {
  const m = new RegExp(`^${name}(\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
  return m ? Number(m[2]) : NaN;
}
