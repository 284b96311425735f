/** fast-check generators for path elements, paths and field sets (small alphabets: many collisions). */
import fc from 'fast-check';
import { FieldSet, type Path } from '../fieldpath/field-set.js';
import { fieldName, indexElement, keyElement, valueElement, type PathElement } from '../fieldpath/path-element.js';
import type { Value } from '../value/value.js';

const name = fc.oneof(fc.constantFrom('a', 'b', 'spec', 'x<y', 'a&b', 'é', '😀', ''), fc.string({ maxLength: 4 }));
const scalar: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom<Value>(1, 2, 80, 443, 53, 1000000, -1, 0.5, 'a', 'b', 'TCP', '', true, false, null),
  fc.integer({ min: -1000, max: 1000 }),
  fc.string({ maxLength: 3 }),
);
const value: fc.Arbitrary<Value> = fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 1, arbitrary: fc.array(scalar, { maxLength: 2 }) });

export const pathElement: fc.Arbitrary<PathElement> = fc.oneof(
  { weight: 4, arbitrary: name.map(fieldName) },
  {
    weight: 2,
    arbitrary: fc
      .uniqueArray(fc.record({ name: fc.constantFrom('name', 'port', 'protocol', 'id'), value: scalar }), { selector: (p) => p.name, minLength: 1, maxLength: 2 })
      .map((pairs) => keyElement(pairs)),
  },
  { weight: 1, arbitrary: value.map((v) => valueElement(v)) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 20 }).map(indexElement) },
);

export const path: fc.Arbitrary<Path> = fc.array(pathElement, { minLength: 1, maxLength: 4 });

export const fieldSet: fc.Arbitrary<FieldSet> = fc.array(path, { maxLength: 12 }).map((ps) => FieldSet.fromPaths(ps));

/** Paths whose field names print unambiguously in human form (no `.`, `[`, empty names). */
export const humanPath: fc.Arbitrary<Path> = fc.array(
  fc.oneof(
    fc.stringMatching(/^[a-zA-Z0-9_/\-]{1,6}$/).map(fieldName),
    pathElement.filter((pe) => pe.kind !== 0),
  ),
  { minLength: 1, maxLength: 5 },
);
