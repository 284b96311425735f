/**
 * `npm run bench:engine`: the SSA engine on fixed inputs anyone can reproduce.
 * 1. Every managedFields entry of every expected object in ../shared/conformance/cases:
 *    FieldsV1 text → set, set → FieldsV1, and for consecutive entries two differences and a union.
 * 2. The whole corpus replayed through the field manager (wall time and per step).
 * 3. Single writes: an apply of a Deployment config against a live object with 4 managers, a Pod
 *    status update, and a no-op apply.
 */
import { parseFieldsV1, serializeFieldsV1 } from '../libs/ssa-engine/src/fieldpath/fields-v1.js';
import type { FieldSet } from '../libs/ssa-engine/src/fieldpath/field-set.js';
import { replayCase } from '../libs/ssa-engine/src/conformance/replay-case.js';
import { heapMiB, loadCases, machine, measure, printTable, type Stats } from './bench-support.js';
import { writeScenarios } from './engine-write-scenarios.js';
import { diffDecodedSnapshots, diffSnapshots } from '../libs/ssa-engine/src/ownership/index.js';
import { readSnapshot } from '../libs/ssa-engine/src/ownership/snapshot.js';
import { BUILTIN_SCHEMA, builtinTypeName } from '../libs/ssa-engine/src/schema/builtin-schema.js';
import { DEDUCED_TYPE, type ResolvedType } from '../libs/ssa-engine/src/schema/resolved-schema.js';

const cases = loadCases();
const texts: string[] = [];
for (const c of cases) {
  for (const s of c.data.steps) {
    for (const e of s.expect?.object?.metadata?.managedFields ?? []) texts.push(JSON.stringify(e.fieldsV1));
  }
}
const bytes = texts.reduce((n, t) => n + t.length, 0);
console.log(`machine: ${machine()}`);
console.log(`input: ${texts.length} managedFields entries, ${(bytes / texts.length).toFixed(0)} bytes of FieldsV1 on average`);

const rows: Stats[] = [];
rows.push(measure('FieldsV1 → set (per entry)', texts.length, (i) => parseFieldsV1(texts[i]!)));
const sets: FieldSet[] = texts.map((t) => parseFieldsV1(t));
rows.push(measure('set → FieldsV1 (per entry)', sets.length, (i) => serializeFieldsV1(sets[i]!)));
rows.push(
  measure('2 differences + union (consecutive entries)', sets.length - 1, (i) => {
    const a = sets[i]!;
    const b = sets[i + 1]!;
    a.difference(b);
    b.difference(a);
    a.union(b);
  }),
);
// Snapshot diff → transitions for every pair of consecutive expected objects of every case.
const pairs: { before: unknown; after: unknown; type: ResolvedType }[] = [];
for (const c of cases) {
  const [apiVersion, kind] = String(c.data.kind).split(' ');
  const type = c.data.schema === 'builtin' ? BUILTIN_SCHEMA.type(builtinTypeName(apiVersion!, kind!)!) : DEDUCED_TYPE;
  let prev: unknown;
  for (const s of c.data.steps) {
    const obj = s.expect?.object;
    if (!obj) continue;
    if (prev !== undefined) pairs.push({ before: prev, after: obj, type });
    prev = obj;
  }
}
rows.push(
  measure(`snapshot diff → transitions (${pairs.length} steps)`, pairs.length, (i) => {
    const p = pairs[i]!;
    diffSnapshots({ object: p.before, type: p.type }, { object: p.after, type: p.type });
  }),
);
// A first observation (every expected object, decoded once beforehand): the acquired transition per
// owned path and owner, and without them (what a projection storing the baseline asks for).
const firsts = pairs.map((p) => readSnapshot({ object: p.after, type: p.type }));
rows.push(measure(`first observation diff, with transitions (${firsts.length} objects)`, firsts.length, (i) => diffDecodedSnapshots(undefined, firsts[i]!)));
rows.push(
  measure(`first observation diff, without transitions (${firsts.length} objects)`, firsts.length, (i) =>
    diffDecodedSnapshots(undefined, firsts[i]!, { firstObservationTransitions: false }),
  ),
);
rows.push(...writeScenarios());
printTable(rows);

const steps = cases.reduce((n, c) => n + c.data.steps.length, 0);
for (const c of cases) replayCase(c.data); // warm-up
const t0 = performance.now();
let failed = 0;
for (const c of cases) if (replayCase(c.data).mismatches.length > 0) failed++;
const ms = performance.now() - t0;
console.log(
  `conformance replay: ${cases.length} cases, ${steps} steps in ${ms.toFixed(0)} ms (${((ms * 1000) / steps).toFixed(1)} µs/step), ${failed} failed`,
);
console.log(heapMiB());
