/**
 * `npm run conformance -- [DIR]`: replays every recorded case in DIR (default
 * ../shared/conformance/cases) through the SSA engine, prints a readable diff for each mismatch
 * and ends with `N passed, M failed`. Exit code 1 when any case fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { replayCase } from '../libs/ssa-engine/src/conformance/replay-case.js';
import type { ConformanceCase } from '../libs/ssa-engine/src/conformance/conformance-case.js';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose') || args.includes('-v');
const dir = resolve(args.find((a) => !a.startsWith('-')) ?? '../shared/conformance/cases');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const cases: ConformanceCase[] = files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as ConformanceCase);
const steps = cases.reduce((n, c) => n + c.steps.length, 0);

function firstDiff(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

const t0 = performance.now();
const results = cases.map(replayCase);
const ms = performance.now() - t0;

let failed = 0;
for (const r of results) {
  if (r.mismatches.length === 0) continue;
  failed++;
  console.log(`FAIL ${r.name} (${r.mismatches.length} of ${r.steps} steps)`);
  for (const m of verbose ? r.mismatches : r.mismatches.slice(0, 1)) {
    console.log(`  step ${m.step}: ${m.reason}`);
    const at = firstDiff(m.expected, m.actual);
    const from = Math.max(0, at - 80);
    console.log(`    expected …${m.expected.slice(from, at + 160)}`);
    console.log(`    actual   …${m.actual.slice(from, at + 160)}`);
  }
}
console.log(`replayed ${cases.length} cases, ${steps} steps in ${ms.toFixed(0)} ms (${((ms * 1000) / steps).toFixed(1)} µs/step)`);
console.log(`${cases.length - failed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
