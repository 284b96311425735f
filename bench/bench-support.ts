/** Small helpers shared by the benchmarks: timing, percentiles, memory, machine description, the built roles as child processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Observation } from '../libs/common/src/index.js';
import type { Cluster, ResourceType } from '../libs/sandbox/src/index.js';
import type { TestContext } from '../libs/testing/src/index.js';
import { deploymentObservation } from '../libs/testing/src/observation.factory.js';
import { createRoleCgroup, roleMemoryLimitBytes } from './role-memory-limit.js';

/** The repository's root: the built roles run from there. */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');

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

/** A seeded pseudo-random generator of numbers in [0, 1) (a linear congruential one): the same picks every run. */
export function seededRandom(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
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
  /** The observation time of object `index`'s observation in `round`. */
  readonly observedAt: (round: number, index: number) => string;
  /** Every n-th object's applier also owns `.spec.replicas`, co-owned with the HPA (a finding); none without. */
  readonly findingEvery?: number;
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
      for (let i = start; i < Math.min(o.objects, start + o.chunk); i++) {
        if (round > 0 && !timeOnly(i, round)) state[i]! += 1;
        out.push(deploymentObservation({
          cluster: 'bench', uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, name: `web-${i}`, namespace: `ns-${i % 50}`,
          resourceVersion: String(round * o.objects + i + 1), type: round === 0 ? 'ADDED' : 'MODIFIED',
          replicas: 1 + (state[i]! % 10), image: `registry.example.com/web:1.${state[i]}`,
          time: new Date(Date.UTC(2026, 10, 21, 10, round)).toISOString(), observedAt: o.observedAt(round, i),
          applierOwnsReplicas: o.findingEvery !== undefined && i % o.findingEvery === 0,
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

/**
 * CPU seconds the local Postgres server has used so far: every `postgres` process alive, plus what
 * the postmaster has collected from the backends that exited (its children's times).
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const f = stat.replace(/^.*\) /s, '').split(' ');
      total += Number(f[11]) + Number(f[12]);
      if (f[1] === '1' || readFileSync(`/proc/${f[1]}/stat`, 'utf8').includes('(postgres)') === false) total += Number(f[13]) + Number(f[14]);
    } catch {
      // The process exited between the listing and the read.
    }
  }
  return total / 100;
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

/** A kind the benchmarks create in the sandbox: its resource, its kind and a small body for a name. */
export interface BenchKind {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly body: (name: string) => unknown;
}

/** A BenchKind whose body is `apiVersion`, `kind` and then `rest(name)`. */
function benchKind(group: string, version: string, plural: string, kind: string, rest: (name: string) => object): BenchKind {
  const apiVersion = group ? `${group}/${version}` : version;
  return { group, version, plural, kind, body: (n) => ({ apiVersion, kind, ...rest(n) }) };
}

/** Ten built-in kinds with small bodies (bench:watch, bench:pipeline --kinds all); the first is ConfigMap. */
export const BENCH_KINDS: readonly BenchKind[] = [
  benchKind('', 'v1', 'configmaps', 'ConfigMap', (n) => ({ metadata: { name: n, labels: { app: n } }, data: { key: n } })),
  benchKind('', 'v1', 'secrets', 'Secret', (n) => ({ metadata: { name: n }, stringData: { password: n } })),
  benchKind('', 'v1', 'serviceaccounts', 'ServiceAccount', (n) => ({ metadata: { name: n, labels: { app: n } } })),
  benchKind('', 'v1', 'services', 'Service', (n) => ({ metadata: { name: n }, spec: { selector: { app: n }, ports: [{ port: 80 }] } })),
  benchKind('', 'v1', 'pods', 'Pod', (n) => ({ metadata: { name: n, labels: { app: n } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } })),
  ...([['deployments', 'Deployment'], ['replicasets', 'ReplicaSet'], ['statefulsets', 'StatefulSet'], ['daemonsets', 'DaemonSet']] as const).map(([plural, kind]) =>
    benchKind('apps', 'v1', plural, kind, (n) => ({
      metadata: { name: n, labels: { app: n } },
      spec: { selector: { matchLabels: { app: n } }, template: { metadata: { labels: { app: n } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } },
    })),
  ),
  benchKind('batch', 'v1', 'cronjobs', 'CronJob', (n) => ({ metadata: { name: n }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox' }] } } } } } })),
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

export interface SpawnRoleOptions {
  /** The role's stdout: piped (read it with `stdoutLine`, or resume it) or this process's. */
  readonly stdout: 'pipe' | 'inherit';
  /** Where to write a V8 CPU profile of the role when it exits (a bench's own option); BENCH_CPU_PROF when not given. */
  readonly cpuProfDir?: string | undefined;
  /** The profile's file name; Node's own (one per process) when not given. */
  readonly cpuProfName?: string;
}

/**
 * Starts a BUILT role (`node dist/apps/main.js <role>`; the bench:* scripts build first), as it is
 * deployed: no TypeScript loader in its memory or CPU. Its environment is this process's without
 * NODE_OPTIONS (tsx's loader), DATABASE_URL and REDIS_URL, then the test context's with `env`
 * (LOG_LEVEL warn and NODE_ENV production unless `env` says otherwise). With a CPU profile folder
 * (`cpuProfDir`, else BENCH_CPU_PROF=<dir>) the role writes its profile there when it exits (read it
 * in Chrome DevTools). BENCH_ROLE_NODE_FLAGS="<flags>" starts each role with those Node/V8 flags
 * (e.g. `--max-semi-space-size=32`): compare a flag against none with the same build, run by run.
 * BENCH_ROLE_MEMORY_LIMIT runs each role in a memory cgroup, as a pod's memory limit does
 * (`role-memory-limit.ts`); the shell that enters it execs Node, so the role keeps its pid.
 */
export function spawnRole(ctx: TestContext, role: 'worker' | 'api' | 'watcher', env: Record<string, string>, opts: SpawnRoleOptions): ChildProcess {
  const { NODE_OPTIONS: _n, DATABASE_URL: _d, REDIS_URL: _r, ...inherited } = process.env;
  const profDir = opts.cpuProfDir ?? process.env['BENCH_CPU_PROF'];
  const profile = profDir ? ['--cpu-prof', '--cpu-prof-dir', resolve(profDir), ...(opts.cpuProfName ? [`--cpu-prof-name=${opts.cpuProfName}`] : [])] : [];
  const flags = (process.env['BENCH_ROLE_NODE_FLAGS'] ?? '').split(/\s+/).filter(Boolean);
  const args = [...flags, ...profile, 'dist/apps/main.js', role];
  const limit = roleMemoryLimitBytes(role);
  const cgroup = limit === null ? null : createRoleCgroup(`ssa-audit-bench-${role}-${process.pid}-${++cgroups}`, limit);
  if (limit !== null) console.log(`[bench] ${role} in a memory cgroup of ${Math.round(limit / 1024 ** 2)} MiB (BENCH_ROLE_MEMORY_LIMIT)`);
  const started = cgroup ? cgroup.wrap(process.execPath, args) : { command: process.execPath, args };
  const child = spawn(started.command, started.args, {
    cwd: ROOT,
    env: { ...inherited, ...ctx.env({ LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env }) },
    stdio: ['ignore', opts.stdout, 'inherit'],
  });
  if (cgroup) child.once('exit', () => cgroup.remove());
  return child;
}

let cgroups = 0;

/** Resolves when the child writes a line containing `text` to its piped stdout (then stops buffering it); rejects if it exits first. */
export function stdoutLine(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    let buffered = '';
    const onData = (d: Buffer) => {
      buffered += d.toString();
      if (!buffered.includes(text)) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      resolvePromise();
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before logging "${text}"`)));
  });
}

/** Stops a child process: SIGTERM, then waits for it to exit (returns at once if it has exited already). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
