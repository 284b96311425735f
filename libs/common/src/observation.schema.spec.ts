import fc from 'fast-check';
import { deploymentObservation, secretObservation } from '../../testing/src/index.js';
import { observationSchema, toObservation } from './observation.schema.js';

/** Values to put at a path: right and wrong types, edge strings and timestamps. */
const replacement = fc.oneof(
  fc.constantFrom(undefined, null, '', 'x', 'ADDED', 'relist', 'bad cluster!', 'a'.repeat(254), 0, 1, true, [], {}, [{}], [{ manager: 1 }],
    [{ manager: 'm', fieldsV1: { 'f:a': {} } }], { a: 'b' }, { a: 1 }, '2026-11-21T12:00:00Z', '2026-11-21T12:00:00.5+01:00',
    '2026-11-21T12:00Z', '2026-02-30T12:00:00Z', '2026-11-21 12:00:00Z', '2026-11-21T24:00:00Z'),
  fc.string(),
);
const paths = [
  [], ['cluster'], ['resource'], ['resource', 'group'], ['resource', 'version'], ['resource', 'kind'], ['resource', 'resource'],
  ['type'], ['source'], ['observedAt'], ['object'], ['object', 'metadata'], ['object', 'metadata', 'uid'], ['object', 'metadata', 'name'],
  ['object', 'metadata', 'namespace'], ['object', 'metadata', 'resourceVersion'], ['object', 'metadata', 'managedFields'],
  ['object', 'metadata', 'managedFields', '0'], ['object', 'metadata', 'managedFields', '0', 'time'], ['object', 'metadata', 'annotations'],
  ['object', 'metadata', 'annotations', 'a'], ['extra'], ['resource', 'extra'],
];

function setAt(root: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = Array.isArray(root) ? [...root] : { ...(root as Record<string, unknown>) };
  const [head, ...rest] = path;
  (copy as Record<string, unknown>)[head!] = setAt((root as Record<string, unknown> | undefined)?.[head!] ?? {}, rest, value);
  return copy;
}

describe('toObservation (the hot-path twin of observationSchema)', () => {
  it('accepts valid observations and returns what the schema returns', () => {
    for (const o of [deploymentObservation({ uid: 'u', resourceVersion: '1' }), secretObservation('s', '2', 'v')]) {
      const viaZod = observationSchema.parse(o);
      expect(toObservation(o)).toEqual(viaZod);
      expect(toObservation({ ...o, extra: 1, resource: { ...o.resource, extra: 2 } })).toEqual(viaZod);
    }
  });

  it('never accepts what the schema rejects, and agrees with it on what both accept', () => {
    const base = deploymentObservation({ uid: 'u', resourceVersion: '1' });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...paths), replacement), { minLength: 1, maxLength: 3 }), (edits) => {
        const value = edits.reduce<unknown>((v, [path, r]) => setAt(v, path, r), base);
        const zod = observationSchema.safeParse(value);
        const fast = toObservation(value);
        if (fast !== null) {
          expect(zod.success).toBe(true);
          expect(fast).toEqual(zod.data);
        }
        if (zod.success) expect(fast).not.toBeNull();
      }),
      { numRuns: 3000 },
    );
  });
});
