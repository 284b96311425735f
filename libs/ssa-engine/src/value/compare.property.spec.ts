import fc from 'fast-check';
import { compareValues, valueEquals } from './compare.js';
import type { Value } from './value.js';

const leaf = fc.oneof(fc.constantFrom<Value>(null, true, false, 0, 1, 2.5, 'a', 'b', ''), fc.integer({ min: -3, max: 3 }));
const value: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('v'), { maxKeys: 3 }),
  ),
})).v;

describe('value order (01 §1.2)', () => {
  it('is a total order consistent with valueEquals', () => {
    fc.assert(
      fc.property(value, value, value, (a, b, c) => {
        const ab = Math.sign(compareValues(a, b)) + 0;
        expect(ab).toBe(0 - Math.sign(compareValues(b, a)) + 0);
        expect(ab === 0).toBe(valueEquals(a, b));
        if (compareValues(a, b) <= 0 && compareValues(b, c) <= 0) expect(compareValues(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 3000 },
    );
  });
});
