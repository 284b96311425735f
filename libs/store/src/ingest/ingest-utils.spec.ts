import fc from 'fast-check';
import { deploymentObservation } from '../../../testing/src/index.js';
import { decodeBody, decodeBodyChain, encodeBody, storedBody } from './body.util.js';
import { splitManagedFields } from './managed-fields.util.js';
import { selectTrackedValues } from './tracked-values.util.js';

describe('selectTrackedValues', () => {
  const body = { spec: { replicas: 3, paused: false }, status: { ready: 1 }, metadata: { name: 'x', labels: { a: 'b' } } };
  it('tracks everything but .status by default', () => {
    expect(selectTrackedValues(body, ['.'], ['.status'])).toEqual({ spec: body.spec, metadata: body.metadata });
  });
  it('selects and removes nested paths without touching the input', () => {
    expect(selectTrackedValues(body, ['.spec', '.metadata.labels'], ['.spec.paused'])).toEqual({ spec: { replicas: 3 }, metadata: { labels: { a: 'b' } } });
    expect(body.spec.paused).toBe(false);
  });
});

describe('splitManagedFields', () => {
  it('gives the same list hash when only time stamps moved', () => {
    const a = splitManagedFields(deploymentObservation({ uid: 'u', resourceVersion: '1', time: '2026-01-01T00:00:00Z' }).object.metadata.managedFields);
    const b = splitManagedFields(deploymentObservation({ uid: 'u', resourceVersion: '2', time: '2026-06-01T00:00:00Z' }).object.metadata.managedFields);
    expect(a.list.hash.equals(b.list.hash)).toBe(true);
    expect(a.times).not.toEqual(b.times);
  });
  it('gives a different list hash when an entry changes', () => {
    const mf = deploymentObservation({ uid: 'u', resourceVersion: '1' }).object.metadata.managedFields!;
    const changed = [{ ...mf[0]!, manager: 'helm' }, ...mf.slice(1)];
    expect(splitManagedFields(mf).list.hash.equals(splitManagedFields(changed).list.hash)).toBe(false);
  });
});

describe('body encoding', () => {
  it('drops managedFields and resourceVersion from the stored body', () => {
    const b = storedBody(deploymentObservation({ uid: 'u', resourceVersion: '9' }).object);
    expect(b['metadata']).not.toHaveProperty('managedFields');
    expect(b['metadata']).not.toHaveProperty('resourceVersion');
  });
  it('keeps "__proto__" and inherited names such as "constructor" as plain keys through a chain', () => {
    const bodies = ['{"v":{}}', '{"v":{"__proto__":null}}', '{"v":{"__proto__":{"a":2}}}', '{"__proto__":1,"v":{}}', '{"v":{"constructor":1}}', '{"v":{}}']
      .map((j) => JSON.parse(j) as Record<string, unknown>);
    for (let n = 2; n <= bodies.length; n++) {
      const chain = bodies.slice(0, n);
      const parts = chain.map((b, i) => encodeBody(i === 0 ? null : chain[i - 1]!, b, i === 0));
      expect(JSON.stringify(decodeBody(parts))).toBe(JSON.stringify(chain.at(-1)));
    }
  });
  it('rebuilds any chain of bodies from a snapshot and patches', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => ({ v }));
    fc.assert(
      fc.property(fc.array(json, { minLength: 1, maxLength: 6 }), (bodies) => {
        const parts = bodies.map((b, i) => encodeBody(i === 0 ? null : bodies[i - 1]!, b, i === 0));
        expect(decodeBody(parts)).toEqual(JSON.parse(JSON.stringify(bodies.at(-1))));
      }),
      { numRuns: 200 },
    );
  });
  it('gives every body of a chain asked for, each its own (whole snapshots in between too), and skips the others', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => ({ v }));
    fc.assert(
      fc.property(fc.array(fc.tuple(json, fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 8 }), (steps) => {
        const bodies = steps.map(([b]) => b);
        const parts = bodies.map((b, i) => encodeBody(i === 0 ? null : bodies[i - 1]!, b, i === 0 || steps[i]![1]));
        const out = decodeBodyChain(parts, (i) => steps[i]![2] || i === 0);
        out.forEach((b, i) => {
          if (!(steps[i]![2] || i === 0)) return expect(b).toBeUndefined();
          expect(b).toEqual(JSON.parse(JSON.stringify(bodies[i])));
        });
        // Independent: changing one body deeply changes no other.
        const all = decodeBodyChain(parts) as Record<string, unknown>[];
        all.forEach((b, i) => {
          b['v'] = { changed: i };
          all.forEach((other, j) => j > i && expect(other).toEqual(JSON.parse(JSON.stringify(bodies[j]))));
        });
      }),
      { numRuns: 200 },
    );
  });
});
