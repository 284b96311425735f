import fc from 'fast-check';
import { valueAt } from '../../../audit/src/index.js';
import { caseNames } from '../../../audit/src/testing/conformance-events.js';
import { caseBodiesAndPaths } from '../testing/corpus-bodies.js';
import { fieldName as field, indexElement as index, type Path } from '../../../ssa-engine/src/index.js';
import { decodeBodyChain, encodeBody, type Body, type BodyEncoding } from './body.util.js';
import { pathValuesAlongChain } from './body-values.util.js';

/** Stored as the appender stores them: a snapshot where `whole(i)`, else a patch against the last snapshot. */
function encodeAll(bodies: readonly Body[], whole: (i: number) => boolean): { encoding: BodyEncoding; json: string }[] {
  let snapshot: Body | null = null;
  return bodies.map((b, i) => {
    const part = encodeBody(snapshot, b, whole(i), null);
    if (part.encoding === 'full') snapshot = b;
    return part;
  });
}

/** What a read of every whole body gives at `path`, as JSON text (`undefined` kept apart). */
const valuesIn = (bodies: readonly (Body | undefined)[], path: Path): string[] => bodies.map((b) => JSON.stringify(valueAt(b, path)) ?? 'absent');
const rebuilt = (parts: readonly { encoding: BodyEncoding; json: string }[], path: Path): string[] => valuesIn(decodeBodyChain(parts), path);

const read = (parts: readonly { encoding: BodyEncoding; json: string }[], path: Path): string[] | null =>
  pathValuesAlongChain(parts, path)?.map((v) => JSON.stringify(v) ?? 'absent') ?? null;

describe('pathValuesAlongChain', () => {
  it('gives the value a rebuilt body gives, at every owned path of every recorded case and every path above it', () => {
    let compared = 0;
    const wrong: string[] = [];
    for (const name of caseNames()) {
      const { bodies, paths } = caseBodiesAndPaths(name);
      if (bodies.length === 0) continue;
      // A snapshot every third event, and only the first: patches on one snapshot, near it and far from it.
      for (const every of [3, Infinity]) {
        const parts = encodeAll(bodies, (i) => i % every === 0);
        const whole = decodeBodyChain(parts);
        for (const [key, path] of paths) {
          if (key === 'f:metadata') continue; // its value includes what the event's columns put back
          const expected = valuesIn(whole, path);
          const got = read(parts, path);
          if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push(`${name} ${key} every ${every}: ${JSON.stringify(got)} ≠ ${JSON.stringify(expected)}`);
          compared += expected.length;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(compared).toBeGreaterThan(10_000);
  });

  it('gives the value a rebuilt body gives for any chain of bodies and any path of fields and indexes', () => {
    const key = fc.constantFrom('a', 'b', 'c/d', 'e~f', 'g"h', 'a/b');
    const json = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }).map((v) => ({ v, w: 1 }) as Body);
    const step = fc.oneof(key.map((k) => field(k)), fc.nat({ max: 2 }).map((i) => index(i)));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(json, fc.boolean()), { minLength: 1, maxLength: 6 }),
        fc.array(step, { maxLength: 4 }).map((rest) => [field('v'), ...rest]),
        (steps, path) => {
          const parts = encodeAll(
            steps.map(([b]) => b),
            (i) => i === 0 || steps[i]![1],
          );
          expect(read(parts, path)).toEqual(rebuilt(parts, path));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('parses a patch written with spaces (not as encodeBody writes it) instead of filtering its text', () => {
    const snapshot = { encoding: 'full' as const, json: '{"spec":{"replicas":1},"status":{}}' };
    const spaced = { encoding: 'snapshot-patch' as const, json: '[{"op":"replace", "path": "/spec/replicas", "value": 3}]' };
    expect(pathValuesAlongChain([snapshot, spaced], [field('spec'), field('replicas')])).toEqual([1, 3]);
  });

  it('cannot answer for what the event columns put back, nor for a chain of patches on previous bodies', () => {
    const parts = encodeAll([{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }], (i) => i === 0);
    expect(pathValuesAlongChain(parts, [field('metadata')])).toBeNull();
    expect(pathValuesAlongChain(parts, [field('metadata'), field('managedFields'), index(0)])).toBeNull();
    expect(pathValuesAlongChain(parts, [field('metadata'), field('resourceVersion')])).toBeNull();
    expect(pathValuesAlongChain(parts, [field('metadata'), field('name')])).toEqual(['a', 'b']);
    expect(pathValuesAlongChain([parts[0]!, { encoding: 'json-patch', json: '[]' }], [field('metadata'), field('name')])).toBeNull();
    expect(pathValuesAlongChain([parts[1]!], [field('metadata'), field('name')])).toBeNull();
  });
});
