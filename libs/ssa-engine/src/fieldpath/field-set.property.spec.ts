import fc from 'fast-check';
import { fieldSet, path, pathElement, humanPath } from '../test/arbitraries.js';
import { FieldSet, pathToHuman, type Path } from './field-set.js';
import { parseFieldsV1, serializeFieldsV1 } from './fields-v1.js';
import { parseHumanPath } from './parse-path.js';
import { comparePE, peEquals } from './path-element.js';

const RUNS = { numRuns: 300 };
const same = (a: FieldSet, b: FieldSet) => a.equals(b);
const paths = (s: FieldSet): Path[] => [...s];
const isSubset = (a: FieldSet, b: FieldSet) => paths(a).every((p) => b.has(p));

describe('FieldSet algebra laws', () => {
  it('union and intersection are commutative', () => {
    fc.assert(fc.property(fieldSet, fieldSet, (a, b) => same(a.union(b), b.union(a)) && same(a.intersection(b), b.intersection(a))), RUNS);
  });

  it('union and intersection are associative', () => {
    fc.assert(
      fc.property(fieldSet, fieldSet, fieldSet, (a, b, c) => same(a.union(b).union(c), a.union(b.union(c))) && same(a.intersection(b).intersection(c), a.intersection(b.intersection(c)))),
      RUNS,
    );
  });

  it('union and intersection are idempotent; a ∪ ∅ = a; a ∩ ∅ = ∅', () => {
    fc.assert(
      fc.property(fieldSet, (a) => same(a.union(a), a) && same(a.intersection(a), a) && same(a.union(FieldSet.EMPTY), a) && a.intersection(FieldSet.EMPTY).isEmpty),
      RUNS,
    );
  });

  it('a ∪ b ⊇ a and a ∩ b ⊆ a; membership of union/intersection/difference is pointwise', () => {
    fc.assert(
      fc.property(fieldSet, fieldSet, path, (a, b, p) => {
        expect(isSubset(a, a.union(b))).toBe(true);
        expect(isSubset(a.intersection(b), a)).toBe(true);
        expect(a.union(b).has(p)).toBe(a.has(p) || b.has(p));
        expect(a.intersection(b).has(p)).toBe(a.has(p) && b.has(p));
        expect(a.difference(b).has(p)).toBe(a.has(p) && !b.has(p));
      }),
      RUNS,
    );
  });

  it('difference and intersection partition a: (a − b) ∪ (a ∩ b) = a, (a − b) ∩ b = ∅', () => {
    fc.assert(fc.property(fieldSet, fieldSet, (a, b) => same(a.difference(b).union(a.intersection(b)), a) && a.difference(b).intersection(b).isEmpty), RUNS);
  });

  it('recursiveDifference ⊆ difference, and removes everything below a member of b', () => {
    fc.assert(
      fc.property(fieldSet, fieldSet, (a, b) => {
        const r = a.recursiveDifference(b);
        expect(isSubset(r, a.difference(b))).toBe(true);
        for (const p of r) for (let i = 1; i <= p.length; i++) expect(b.has(p.slice(0, i))).toBe(false);
      }),
      RUNS,
    );
  });

  it('size counts members; leaves ⊆ a', () => {
    fc.assert(fc.property(fieldSet, (a) => a.size === paths(a).length && isSubset(a.leaves(), a)), RUNS);
  });

  it('equals ⇔ same serialisation', () => {
    fc.assert(fc.property(fieldSet, fieldSet, (a, b) => a.equals(b) === (serializeFieldsV1(a) === serializeFieldsV1(b))), RUNS);
    fc.assert(fc.property(fieldSet, (a) => FieldSet.fromPaths(paths(a)).equals(a)), RUNS);
  });

  it('iterates members before children, each in element order', () => {
    fc.assert(
      fc.property(fieldSet, (a) => {
        const ps = paths(a);
        for (let i = 1; i < ps.length; i++) {
          const [x, y] = [ps[i - 1]!, ps[i]!];
          // First differing position: x must be before y; a path shorter there (a member) comes first.
          let k = 0;
          while (k < x.length && k < y.length && peEquals(x[k]!, y[k]!)) k++;
          if (k === x.length || k === y.length) {
            expect(x.length).toBeLessThan(y.length);
            continue;
          }
          const xMember = k === x.length - 1;
          const yMember = k === y.length - 1;
          if (xMember !== yMember) expect(xMember).toBe(true);
          else expect(comparePE(x[k]!, y[k]!)).toBeLessThan(0);
        }
      }),
      RUNS,
    );
  });
});

describe('FieldsV1 round trip', () => {
  it('parse(serialize(s)) equals s, and serialisation is canonical (a fixpoint)', () => {
    fc.assert(
      fc.property(fieldSet, (s) => {
        const bytes = serializeFieldsV1(s);
        const back = parseFieldsV1(bytes);
        return back.equals(s) && serializeFieldsV1(back) === bytes;
      }),
      RUNS,
    );
  });

  it('key order of the input does not matter', () => {
    fc.assert(
      fc.property(fieldSet, (s) => {
        const reversed = (o: Record<string, unknown>): Record<string, unknown> =>
          Object.fromEntries(Object.keys(o).reverse().map((k) => [k, reversed(o[k] as Record<string, unknown>)]));
        return serializeFieldsV1(parseFieldsV1(reversed(JSON.parse(serializeFieldsV1(s))))) === serializeFieldsV1(s);
      }),
      RUNS,
    );
  });
});

describe('path element order', () => {
  it('is a total order consistent with equality', () => {
    fc.assert(
      fc.property(pathElement, pathElement, pathElement, (a, b, c) => {
        const ab = Math.sign(comparePE(a, b)) + 0;
        expect(ab).toBe(0 - Math.sign(comparePE(b, a)) + 0);
        expect(ab === 0).toBe(peEquals(a, b));
        expect(comparePE(a, a)).toBe(0);
        if (comparePE(a, b) <= 0 && comparePE(b, c) <= 0) expect(comparePE(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('human path round trip', () => {
  it('print → parse → equal', () => {
    fc.assert(
      fc.property(humanPath, (p) => {
        const back = parseHumanPath(pathToHuman(p));
        return back.length === p.length && back.every((pe, i) => peEquals(pe, p[i]!)) && pathToHuman(back) === pathToHuman(p);
      }),
      { numRuns: 1000 },
    );
  });
});
