import fc from 'fast-check';
import { valueAt } from '../../../audit/src/index.js';
import { caseNames } from '../../../audit/src/testing/conformance-events.js';
import { caseBodiesAndPaths } from '../testing/corpus-bodies.js';
import { fieldName as field, indexElement as index, valueEquals, type Path } from '../../../ssa-engine/src/index.js';
import { decodeBodyChain, encodeBody, type Body, type EncodedBody } from './body.util.js';
import { patchFilterOf } from './body-values.util.js';
import { EVERY_PATH, KEPT_OPS, changePathsOfPatch, decodePatchOps, encodePatchOps, patchOpDigests, type PatchOpDigest } from './change-paths.util.js';
import { diffJson } from './json-diff.util.js';
import { pathsMask } from './patch-paths.util.js';

/** Stored as the appender stores them: a snapshot where `whole(i)`, else a patch against the last snapshot; each compared with the event before. */
function encodeChain(bodies: readonly Body[], whole: (i: number) => boolean): EncodedBody[] {
  let snapshot: Body | null = null;
  let previous: PatchOpDigest[] | null = null;
  return bodies.map((b, i) => {
    const part = encodeBody(snapshot, b, whole(i), previous);
    if (part.encoding === 'full') snapshot = b;
    previous = part.ops;
    return part;
  });
}

/**
 * The events (after the first) at which the value of `path` differs from the event before's (as a
 * history compares values: maps whatever their keys' order), and those the summaries leave out:
 * every one of the first must be kept. (A new snapshot may order a map's keys otherwise than the
 * patched body before it, with no change of value.)
 */
function missedChanges(parts: readonly EncodedBody[], path: Path): { changed: number; skipped: number; missed: number[] } {
  const at = patchFilterOf(path)!.at;
  const mask = pathsMask(at);
  const values = decodeBodyChain(parts).map((b) => valueAt(b, path));
  let changed = 0;
  let skipped = 0;
  const missed: number[] = [];
  for (let i = 1; i < parts.length; i++) {
    const kept = (parts[i]!.changePaths & mask) !== 0n;
    if (!kept) skipped++;
    if (!valueEquals(values[i], values[i - 1])) {
      changed++;
      if (!kept) missed.push(i);
    }
  }
  return { changed, skipped, missed };
}

const digests = (...texts: string[]): PatchOpDigest[] =>
  patchOpDigests(
    texts.map((t) => JSON.parse(t) as { op: 'add'; path: string; value: unknown }),
    texts,
  );

describe('change paths summary', () => {
  it('keeps every event at which a path of a recorded case changes value, and leaves most others out', () => {
    let changed = 0;
    let skipped = 0;
    const wrong: string[] = [];
    for (const name of caseNames()) {
      const { bodies, paths } = caseBodiesAndPaths(name);
      if (bodies.length < 2) continue;
      // A snapshot every third event, and only the first: new snapshots compared with patches, and patches with patches.
      for (const every of [3, Infinity]) {
        const parts = encodeChain(bodies, (i) => i % every === 0);
        for (const [key, path] of paths) {
          if (patchFilterOf(path) === null) continue; // a value the event's columns put back: read by folding
          const r = missedChanges(parts, path);
          changed += r.changed;
          skipped += r.skipped;
          if (r.missed.length > 0) wrong.push(`${name} ${key} every ${every}: the change at ${r.missed.join(', ')} left out`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(changed).toBeGreaterThan(100);
    // Most events change most paths' values not at all: the summary leaves them out.
    expect(skipped).toBeGreaterThan(changed);
  });

  it('keeps every change of any chain of bodies at any path of fields and indexes', () => {
    const key = fc.constantFrom('a', 'b', 'c/d', 'e~f', 'g"h', 'a/b');
    const json = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }).map((v) => ({ v, w: 1 }) as Body);
    const step = fc.oneof(key.map((k) => field(k)), fc.nat({ max: 2 }).map((i) => index(i)));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(json, fc.boolean()), { minLength: 2, maxLength: 8 }),
        fc.array(step, { maxLength: 4 }).map((rest) => [field('v'), ...rest]),
        (steps, path) => {
          const parts = encodeChain(
            steps.map(([b]) => b),
            (i) => i === 0 || steps[i]![1],
          );
          expect(missedChanges(parts, path).missed).toEqual([]);
          // The stored patch is JSON.stringify of the operations, as before the summary.
          parts.forEach((p, i) => {
            if (p.encoding === 'snapshot-patch') {
              const snapshot = steps.slice(0, i).findLast((_, j) => parts[j]!.encoding === 'full')![0];
              expect(p.json).toBe(JSON.stringify(diffJson(snapshot, steps[i]![0])));
            }
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('changes every path where the event before is not known, and where the shared operations come in another order', () => {
    const a = '{"op":"add","path":"/spec/a","value":1}';
    const b = '{"op":"add","path":"/status/b","value":2}';
    expect(changePathsOfPatch(null, digests(a))).toBe(EVERY_PATH);
    expect(changePathsOfPatch(digests(a, b), digests(b, a))).toBe(EVERY_PATH);
    // The same operations: nothing changed; one more: its paths only.
    expect(changePathsOfPatch(digests(a, b), digests(a, b))).toBe(0n);
    expect(changePathsOfPatch(digests(a), digests(a, b))).toBe(digests(b)[0]!.bits);
    // An operation left out changes its paths (back to the snapshot's value).
    expect(changePathsOfPatch(digests(a, b), digests(a))).toBe(digests(b)[0]!.bits);
    // The same text twice in one and once in the other: the one left over counts.
    expect(changePathsOfPatch(digests(a, a), digests(a))).toBe(digests(a)[0]!.bits);
    // A first event, a snapshot against nothing.
    expect(encodeBody(null, { a: 1 }, false, [])).toMatchObject({ encoding: 'full', changePaths: EVERY_PATH });
  });

  it('keeps the operations for the next event after the last sequence, and only for it', () => {
    const ops = digests('{"op":"add","path":"/spec/a","value":1}', '{"op":"remove","path":"/metadata/labels/x"}');
    const kept = Buffer.concat([Buffer.from('0000000000000007', 'hex'), encodePatchOps(ops)!]);
    expect(decodePatchOps(kept, '7')).toEqual(ops);
    // Written by the row's tip before an earlier version appended again: not this event's.
    expect(decodePatchOps(kept, '8')).toBeNull();
    expect(decodePatchOps(null, '7')).toBeNull();
    expect(decodePatchOps(Buffer.from('0000000000000007', 'hex'), '7')).toEqual([]);
    expect(encodePatchOps(null)).toBeNull();
    const many = digests(...Array.from({ length: KEPT_OPS + 1 }, (_, i) => `{"op":"add","path":"/spec/k${i}","value":1}`));
    expect(encodePatchOps(many)).toBeNull();
    expect(encodePatchOps(many.slice(0, KEPT_OPS))!.length).toBe(KEPT_OPS * 24);
  });
});
