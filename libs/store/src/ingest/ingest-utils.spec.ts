import fc from 'fast-check';
import { deploymentObservation } from '../../../testing/src/index.js';
import { decodeBody, decodeBodyChain, encodeBody, storedBody, type BodyEncoding } from './body.util.js';
import { diffJson } from './json-diff.util.js';
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
  /** Encodes bodies as the appender does: each patch against the last whole body; `whole(i)` forces one. */
  function encodeAll(bodies: readonly Record<string, unknown>[], whole: (i: number) => boolean = (i) => i === 0) {
    let snapshot: Record<string, unknown> | null = null;
    return bodies.map((b, i) => {
      const part = encodeBody(snapshot, b, whole(i), null);
      if (part.encoding === 'full') snapshot = b;
      return part;
    });
  }
  /** Chains as stored before snapshot patches: a whole body, then patches each on the previous body (whole where a patch cannot carry it, as then). */
  function legacyChain(bodies: readonly Record<string, unknown>[]): { parts: { encoding: BodyEncoding; json: string }[]; snapshot: Record<string, unknown> } {
    let snapshot = bodies[0]!;
    const parts = bodies.map((b, i): { encoding: BodyEncoding; json: string } => {
      const ops = i === 0 ? [] : diffJson(bodies[i - 1], b);
      const json = JSON.stringify(ops);
      if (i > 0 && !json.includes('"__proto__"') && !ops.some((op) => op.path === '')) return { encoding: 'json-patch', json };
      snapshot = b;
      return { encoding: 'full', json: JSON.stringify(b) };
    });
    return { parts, snapshot };
  }

  it('keeps "__proto__" and inherited names such as "constructor" as plain keys through a chain', () => {
    const bodies = ['{"v":{}}', '{"v":{"__proto__":null}}', '{"v":{"__proto__":{"a":2}}}', '{"__proto__":1,"v":{}}', '{"v":{"constructor":1}}', '{"v":{}}']
      .map((j) => JSON.parse(j) as Record<string, unknown>);
    for (let n = 2; n <= bodies.length; n++) {
      const chain = bodies.slice(0, n);
      expect(JSON.stringify(decodeBody(encodeAll(chain)))).toBe(JSON.stringify(chain.at(-1)));
    }
  });
  it('stores whole a body whose patch goes through a "constructor" or "prototype" key (the patch would land on the node above)', () => {
    for (const key of ['constructor', 'prototype']) {
      const snapshot = { spec: { [key]: { a: 1 }, a: 5 } };
      const next = { spec: { [key]: { a: 2 }, a: 5 } };
      const part = encodeBody(snapshot, next, false, []);
      expect(part.encoding).toBe('full');
      expect(decodeBody([{ encoding: 'full', json: JSON.stringify(snapshot) }, part])).toEqual(next);
      // Ending at such a key, the patch applies as written.
      const leaf = encodeBody(snapshot, { spec: { [key]: 3, a: 5 } }, false, []);
      expect(leaf.encoding).toBe('snapshot-patch');
      expect(decodeBody([{ encoding: 'full', json: JSON.stringify(snapshot) }, leaf])).toEqual({ spec: { [key]: 3, a: 5 } });
    }
  });
  it('reads back a snapshot patch through a "constructor" or "prototype" key, as builds before 44b2f98 stored them', () => {
    for (const key of ['constructor', 'prototype']) {
      const snapshot = { spec: { [key]: { a: 1 }, a: 2 } };
      const next = { spec: { [key]: { a: 2 }, a: 5 } };
      const stored = { encoding: 'snapshot-patch' as const, json: JSON.stringify(diffJson(snapshot, next)) };
      expect(decodeBody([{ encoding: 'full', json: JSON.stringify(snapshot) }, stored])).toEqual(next);
      expect(decodeBodyChain([{ encoding: 'full', json: JSON.stringify(snapshot) }, stored])).toEqual([snapshot, next]);
    }
  });
  it('patches against the last whole body, not the previous one', () => {
    const parts = encodeAll([{ a: 1, b: 1 }, { a: 2, b: 1 }, { a: 2, b: 3 }]);
    expect(parts.map((p) => p.encoding)).toEqual(['full', 'snapshot-patch', 'snapshot-patch']);
    expect(JSON.parse(parts[2]!.json)).toEqual([{ op: 'replace', path: '/a', value: 2 }, { op: 'replace', path: '/b', value: 3 }]);
  });
  it('rebuilds any chain of bodies from a snapshot and patches', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => ({ v }));
    fc.assert(
      fc.property(fc.array(fc.tuple(json, fc.boolean()), { minLength: 1, maxLength: 6 }), (steps) => {
        const bodies = steps.map(([b]) => b);
        expect(decodeBody(encodeAll(bodies, (i) => i === 0 || steps[i]![1]))).toEqual(JSON.parse(JSON.stringify(bodies.at(-1))));
      }),
      { numRuns: 200 },
    );
  });
  it('reads chains stored before snapshot patches, and such a chain continued by snapshot patches', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => ({ v }));
    fc.assert(
      fc.property(fc.array(json, { minLength: 1, maxLength: 5 }), fc.array(json, { maxLength: 3 }), (old, later) => {
        const { parts, snapshot } = legacyChain(old);
        // After the migration, each object's snapshot is its last whole body.
        parts.push(...later.map((b) => encodeBody(snapshot, b, false, null)));
        const bodies = [...old, ...later];
        expect(decodeBody(parts)).toEqual(JSON.parse(JSON.stringify(bodies.at(-1))));
        decodeBodyChain(parts).forEach((b, i) => expect(b).toEqual(JSON.parse(JSON.stringify(bodies[i]))));
      }),
      { numRuns: 200 },
    );
  });
  it('gives every body of a chain asked for, each its own (whole snapshots in between too), and skips the others', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => ({ v }));
    fc.assert(
      fc.property(fc.array(fc.tuple(json, fc.boolean(), fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 8 }), (steps) => {
        const bodies = steps.map(([b]) => b);
        // Some chains start as stored before snapshot patches (up to the first step marked so).
        const legacyUpTo = Math.max(0, steps.findIndex((s) => s[3]));
        const legacy = legacyChain(bodies.slice(0, legacyUpTo + 1));
        const parts = legacy.parts;
        let snapshot = legacy.snapshot;
        for (let i = legacyUpTo + 1; i < bodies.length; i++) {
          const part = encodeBody(snapshot, bodies[i]!, steps[i]![1], null);
          if (part.encoding === 'full') snapshot = bodies[i]!;
          parts.push(part);
        }
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
