/**
 * Hostile input: every failure is the engine's own `SsaEngineError` (never a raw TypeError or
 * RangeError), untrusted keys (`__proto__`, `constructor`) stay data and never pollute prototypes,
 * deep nesting stops with `too-deep`, and huge lists finish in about linear time.
 */
import { MAX_DEPTH, SsaEngineError } from './errors.js';
import { FieldSet } from './fieldpath/field-set.js';
import { parseFieldsV1, serializeFieldsV1 } from './fieldpath/fields-v1.js';
import { fieldName } from './fieldpath/path-element.js';
import { decodeManagedFields } from './managed-fields/managed-fields.js';
import { DEDUCED_TYPE } from './schema/resolved-schema.js';
import { compare } from './typed/compare.js';
import { merge } from './typed/merge.js';
import { removeItems } from './typed/remove-items.js';
import { toFieldSet } from './typed/to-field-set.js';
import { safeValidate } from './typed/validate.js';
import type { Value } from './value/value.js';
import { builtinManager, customManager, entries, owned, thing } from './test/test-support.js';

function engineError(f: () => unknown): SsaEngineError {
  try {
    f();
  } catch (e) {
    if (!(e instanceof SsaEngineError)) throw new Error(`expected an SsaEngineError, got ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
    return e;
  }
  throw new Error('did not throw');
}

function nested(depth: number, leaf: Value = 1): Value {
  let v: Value = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

function protoIsClean(): void {
  const probe = {} as Record<string, unknown>;
  expect(probe['polluted']).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(Object.prototype.constructor).toBe(Object);
}

describe('malformed FieldsV1 → invalid-fields-v1', () => {
  it.each([
    ['not JSON', '{"f:a":'],
    ['trailing data', '{"f:a":{}} x'],
    ['a list', '[]'],
    ['a string value', '{"f:a":"x"}'],
    ['a number value', '{"f:a":1}'],
    ['a list value', '{"f:a":[]}'],
    ['nested bad value', '{"f:a":{"f:b":true}}'],
    ['bad k: JSON', '{"k:{name:1}":{}}'],
    ['k: not an object', '{"k:[1]":{}}'],
    ['k: trailing data', '{"k:{\\"a\\":1}x":{}}'],
    ['v: bad JSON', '{"v:nope":{}}'],
    ['fractional index', '{"i:1.5":{}}'],
    ['index not a number', '{"i:x":{}}'],
    ['missing colon', '{"fspec":{}}'],
    ['short key', '{"f":{}}'],
  ])('%s', (_what, input) => {
    expect(engineError(() => parseFieldsV1(input)).code).toBe('invalid-fields-v1');
  });

  it('a top-level non-object is rejected', () => {
    expect(engineError(() => parseFieldsV1('1')).code).toBe('invalid-fields-v1');
    expect(engineError(() => parseFieldsV1('"x"')).code).toBe('invalid-fields-v1');
  });

  it('unknown element types are dropped with their subtree (forward compatibility)', () => {
    expect(serializeFieldsV1(parseFieldsV1('{"x:y":{"f:a":{}},"f:b":{}}'))).toBe('{"f:b":{}}');
  });
});

describe('prototype keys stay data', () => {
  afterEach(protoIsClean);

  it('f:__proto__, f:constructor and k:{"__proto__":1} round-trip through FieldsV1', () => {
    const bytes = '{"f:__proto__":{".":{},"f:polluted":{}},"f:constructor":{"f:prototype":{}},"f:x":{"k:{\\"__proto__\\":1}":{}}}';
    const s = parseFieldsV1(bytes);
    expect(s.toHumanPaths()).toEqual(['.__proto__', '.__proto__.polluted', '.constructor.prototype', '.x[__proto__=1]']);
    expect(serializeFieldsV1(s)).toBe(bytes);
    expect(parseFieldsV1(JSON.parse(bytes) as object).equals(s)).toBe(true);
  });

  const hostile = JSON.parse('{"spec":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":1}},"toString":"x"}}') as Value;

  it('toFieldSet / compare / merge / removeItems keep the keys', () => {
    const set = toFieldSet(hostile, DEDUCED_TYPE);
    expect(set.toHumanPaths()).toEqual([
      '.spec',
      '.spec.__proto__',
      '.spec.constructor',
      '.spec.toString',
      '.spec.__proto__.polluted',
      '.spec.constructor.prototype',
      '.spec.constructor.prototype.polluted',
    ]);
    const merged = merge({ spec: {} }, hostile, DEDUCED_TYPE) as Record<string, Record<string, unknown>>;
    expect(Object.prototype.hasOwnProperty.call(merged['spec'], '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(merged['spec'])).not.toHaveProperty('polluted');
    expect(JSON.stringify(merged)).toBe(JSON.stringify(hostile));
    expect(compare({ spec: {} }, hostile, DEDUCED_TYPE).added.toHumanPaths()).toContain('.spec.__proto__');
    const removed = removeItems(hostile, FieldSet.fromPaths([[fieldName('spec'), fieldName('__proto__')]]), DEDUCED_TYPE);
    expect(JSON.stringify(removed)).toBe('{"spec":{"constructor":{"prototype":{"polluted":1}},"toString":"x"}}');
    expect(safeValidate(hostile, DEDUCED_TYPE).success).toBe(true);
  });

  it('FieldManager apply and update of a custom resource keep the keys as data', () => {
    const fm = customManager('deduced');
    const body = hostile as Record<string, Value>;
    const a = fm.apply(undefined, thing(body), 'a', false);
    expect(JSON.stringify((a as Record<string, Value>)['spec'])).toBe(JSON.stringify(body['spec']));
    expect(owned(a, 'a')).toContain('.spec.__proto__.polluted');
    const u = fm.update(a, { ...a, spec: JSON.parse('{"__proto__":{"polluted":"no"}}') as Value }, 'u');
    expect(owned(u, 'u')).toEqual(['.spec.__proto__.polluted']);
    // U's write removed constructor and toString, and took __proto__.polluted: A keeps the rest.
    expect(owned(u, 'a')).toEqual(['.spec', '.spec.__proto__']);
    const pruned = fm.apply(u, thing({ spec: { constructor: 1 } }), 'a', false);
    // A stopped applying the map element __proto__ it owned: pruned with U's child, as 08#28 does for
    // list items (RemoveItems drops the element; U owned only a child, not the element).
    expect(JSON.stringify((pruned as Record<string, Value>)['spec'])).toBe('{"constructor":1}');
    expect(owned(pruned, 'a')).toEqual(['.spec', '.spec.constructor']);
    expect(owned(pruned, 'u')).toEqual([]);
  });

  it('a built-in object with __proto__ label keys', () => {
    const fm = builtinManager('v1', 'ConfigMap');
    const cm = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"__proto__":"x","constructor":"y"}},"data":{"__proto__":"z"}}') as Record<string, Value>;
    const out = fm.apply(undefined, cm, 'a', false);
    expect(owned(out, 'a')).toEqual(['.data.__proto__', '.metadata.labels.__proto__', '.metadata.labels.constructor']);
    expect(JSON.stringify((out['metadata'] as Record<string, Value>)['labels'])).toBe('{"__proto__":"x","constructor":"y"}');
  });
});

describe('prototype-named fields of built-in kinds', () => {
  afterEach(protoIsClean);

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('%s: apply rejects the undeclared field; update drops it as the Go decoder does', (k) => {
    const spec = JSON.parse(`{"${k}": 1}`) as Value;
    const d = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec } as Record<string, Value>;
    const e = engineError(() => builtinManager('apps/v1', 'Deployment').apply(undefined, d, 'a', false));
    expect(e.code).toBe('validation');
    expect(e.message).toContain(`.spec.${k}: field not declared in schema`);
    const u = builtinManager('apps/v1', 'Deployment').update(undefined, d, 'u');
    expect(Object.prototype.hasOwnProperty.call(u['spec'], k)).toBe(false);
  });
});

describe('deep nesting → too-deep, never RangeError', () => {
  const deep = nested(MAX_DEPTH + 10);
  const veryDeep = nested(50_000);

  it.each([
    ['toFieldSet', () => toFieldSet(deep, DEDUCED_TYPE)],
    ['toFieldSet (50k)', () => toFieldSet(veryDeep, DEDUCED_TYPE)],
    ['validate', () => safeValidate(veryDeep, DEDUCED_TYPE)],
    ['compare', () => compare(nested(MAX_DEPTH + 10, 1), nested(MAX_DEPTH + 10, 2), DEDUCED_TYPE)],
    ['merge', () => merge({}, veryDeep, DEDUCED_TYPE)],
    ['parseFieldsV1 (text)', () => parseFieldsV1('{"f:a":'.repeat(50_000) + '{}' + '}'.repeat(50_000))],
    ['FieldManager.apply (CR)', () => customManager('deduced').apply(undefined, thing({ spec: veryDeep }), 'a', false)],
    ['FieldManager.update (CR)', () => customManager('deduced').update(undefined, thing({ spec: veryDeep }), 'u')],
    ['FieldManager.apply (ConfigMap)', () => builtinManager('v1', 'ConfigMap').apply(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', annotations: veryDeep } as Value } as Record<string, Value>, 'a', false)],
  ])('%s', (_what, f) => {
    expect(engineError(f).code).toMatch(/^(too-deep|validation|invalid-object)$/);
  });

  it('removeItems walks only the set, so a deep value with a shallow set is fine', () => {
    expect(removeItems({ b: 1, a: veryDeep }, FieldSet.fromPaths([[fieldName('b')]]), DEDUCED_TYPE)).toEqual({ a: veryDeep });
  });

  it('a deep value where the schema wants a string is too-deep, not a RangeError in the message (bug fixed)', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', annotations: veryDeep } } as Record<string, Value>;
    expect(engineError(() => builtinManager('v1', 'ConfigMap').apply(undefined, cm, 'a', false)).code).toBe('too-deep');
  });

  it('a deep atomic list in a CR update is too-deep from the CR normaliser, not a RangeError (bug fixed)', () => {
    const deepList = JSON.parse('['.repeat(30_000) + ']'.repeat(30_000)) as Value;
    expect(engineError(() => customManager('deduced').update(undefined, thing({ spec: deepList }), 'u')).code).toBe('too-deep');
    expect(engineError(() => customManager('deduced').apply(undefined, thing({ spec: deepList }), 'a', false)).code).toBe('too-deep');
  });

  it('FieldSet.fromPaths with a path longer than any walk produces is too-deep, not a RangeError (bug fixed)', () => {
    const long = Array.from({ length: 30_000 }, () => fieldName('a'));
    expect(engineError(() => FieldSet.fromPaths([long])).code).toBe('too-deep');
    expect(FieldSet.fromPaths([long.slice(0, MAX_DEPTH + 1)]).size).toBe(1);
  });

  it('the deep typed walks say too-deep', () => {
    expect(engineError(() => toFieldSet(veryDeep, DEDUCED_TYPE)).code).toBe('too-deep');
    expect(engineError(() => merge({}, veryDeep, DEDUCED_TYPE)).code).toBe('too-deep');
    expect(engineError(() => parseFieldsV1('{"f:a":'.repeat(MAX_DEPTH + 5) + '{}' + '}'.repeat(MAX_DEPTH + 5))).code).toBe('too-deep');
  });

  it('nesting just below the limit works', () => {
    expect(toFieldSet(nested(MAX_DEPTH - 2), DEDUCED_TYPE).size).toBe(MAX_DEPTH - 2);
  });
});

describe('non-object input', () => {
  it.each([
    ['null', null],
    ['a string', 'x'],
    ['a number', 1],
    ['a list', []],
  ])('apply of %s is invalid-apply, not a TypeError (bug fixed)', (_what, config) => {
    expect(engineError(() => builtinManager('v1', 'ConfigMap').apply(undefined, config as unknown as Record<string, Value>, 'a', false)).code).toBe('invalid-apply');
    expect(engineError(() => customManager('deduced').apply(undefined, config as unknown as Record<string, Value>, 'a', false)).code).toBe('invalid-apply');
  });

  it('a non-map metadata in an applied ConfigMap is a validation error', () => {
    expect(engineError(() => builtinManager('v1', 'ConfigMap').apply(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: 5 }, 'a', false)).code).toBe('validation');
  });

  it('wrongly typed values in an Update of a built-in are invalid-object (the Go decoder refuses them)', () => {
    const d = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 'x' } } as Record<string, Value>;
    expect(engineError(() => builtinManager('apps/v1', 'Deployment').update(undefined, d, 'u')).code).toBe('invalid-object');
  });
});

describe('huge lists', () => {
  const N = 100_000;
  it('a 10^5-item set and list-map apply completes in about linear time', () => {
    const fm = customManager('deduced');
    const t0 = performance.now();
    const big = fm.apply(undefined, thing({ spec: { list: Array.from({ length: N }, (_, i) => i), set: Object.fromEntries(Array.from({ length: N }, (_, i) => [`k${i}`, i])) } }), 'a', false);
    const t1 = performance.now();
    const again = fm.apply(big, thing({ spec: { list: [1], set: { k1: 1 } } }), 'a', false);
    const t2 = performance.now();
    expect(owned(again, 'a')).toEqual(['.spec', '.spec.list', '.spec.set', '.spec.set.k1']);
    expect(t1 - t0).toBeLessThan(10_000);
    expect(t2 - t1).toBeLessThan(10_000);
  });

  it('a FieldsV1 entry with 10^5 set items parses and serialises back', () => {
    const keys = Array.from({ length: N }, (_, i) => `"v:${i}":{}`);
    const bytes = '{"f:spec":{"f:items":{' + keys.join(',') + '}}}';
    const s = parseFieldsV1(bytes);
    expect(s.size).toBe(N);
    expect(serializeFieldsV1(s)).toBe('{"f:spec":{"f:items":{' + [...keys].sort((a, b) => Number(a.slice(3, -4)) - Number(b.slice(3, -4))).join(',') + '}}}');
  });
});

describe('malformed managedFields → invalid-managed-fields naming the entry', () => {
  const ok = { manager: 'a', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} };
  it.each([
    ['not a list', { a: 1 }, /list/],
    ['an entry not an object', [ok, 1], /entry 1/],
    ['bad operation', [ok, { ...ok, operation: 'Patch' }], /entry 1.*operation/],
    ['no apiVersion', [{ ...ok, apiVersion: '' }], /entry 0.*apiVersion/],
    ['no fieldsType', [{ ...ok, fieldsType: undefined }], /missing fieldsType in managed fields entry 0/],
    ['bad fieldsType', [{ ...ok, fieldsType: 'FieldsV2' }], /invalid fieldsType "FieldsV2" in managed fields entry 0/],
    ['manager not a string', [{ ...ok, manager: 5 }], /entry 0: manager/],
    ['bad time', [{ ...ok, time: 'yesterday' }], /entry 0.*time/],
    ['bad FieldsV1', [ok, ok, { ...ok, fieldsV1: { 'f:a': 1 } }], /entry 2/],
    ['FieldsV1 a string', [{ ...ok, fieldsV1: 'x' }], /entry 0/],
  ])('%s', (_what, list, msg) => {
    const e = engineError(() => decodeManagedFields(list));
    expect(e.code).toBe('invalid-managed-fields');
    expect(e.message).toMatch(msg);
  });

  it('FieldManager.apply on a live object with a malformed entry fails with the engine error', () => {
    const live = { ...thing({ spec: { a: 1 } }), metadata: { name: 't', managedFields: [{ ...ok, operation: 'Nope' }] } } as Record<string, Value>;
    expect(engineError(() => customManager('deduced').apply(live, thing({ spec: { a: 1 } }), 'a', false)).code).toBe('invalid-managed-fields');
  });

  it('decoding a good entry yields nothing surprising', () => {
    expect(entries({ metadata: { managedFields: [] } } as Value)).toEqual([]);
  });
});
