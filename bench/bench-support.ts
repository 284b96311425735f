/** Small helpers shared by the benchmarks: timing, percentiles, memory, machine description. */
import { cpus, totalmem } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Stats {
  readonly name: string;
  readonly ops: number;
  readonly meanUs: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly opsPerSec: number;
}

function pct(sorted: Float64Array, p: number): number {
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
