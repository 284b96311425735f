/**
 * Every edge case of `shared/ssa/08-edge-cases.md`, numbered like the document, run through the
 * public FieldManager (and, where the case is about bytes or order, the public set functions).
 * Where the engine (and the recorded corpus) differs from the prose, the test says so.
 */
import type { KubeObject } from './apiserver/field-manager.js';
import { normalizerFor } from './apiserver/normalize.js';
import { resetFieldsFor } from './apiserver/reset-fields.js';
import { updateScale } from './apiserver/scale.js';
import { SsaEngineError } from './errors.js';
import { parseFieldsV1, serializeFieldsV1 } from './fieldpath/fields-v1.js';
import { fieldName, keyElement, peEquals } from './fieldpath/path-element.js';
import { ConflictError } from './merge/conflict.js';
import { BUILTIN_SCHEMA } from './schema/builtin-schema.js';
import type { ScalarType, StructField, TypeDef } from './schema/schema.js';
import { toFieldSet } from './typed/to-field-set.js';
import type { Value, ValueMap } from './value/value.js';
import { builtinManager, customManager, entries, entryOf, fieldsV1Of, owned, steppingClock, thing, thrown } from './test/test-support.js';

// ---------------------------------------------------------------------------------------------
// A small SMD schema in the style of the SMD merge tests: scalars at the root, a granular struct,
// a numeric set, a list-map keyed by name whose items carry a string set, and a list-map keyed by
// [port, protocol] without defaults.
const scalars = (scalar: ScalarType, ...names: string[]): StructField[] => names.map((name) => ({ name, type: { scalar } }));
const TYPES = (structRel?: 'atomic'): TypeDef[] => [
  {
    name: 'root',
    map: {
      fields: [
        { name: 'apiVersion', type: { scalar: 'string' } },
        { name: 'kind', type: { scalar: 'string' } },
        { name: 'metadata', type: { namedType: '__untyped_deduced_' } },
        { name: 'numeric', type: { scalar: 'numeric' } },
        { name: 'string', type: { scalar: 'string' } },
        { name: 'bool', type: { scalar: 'boolean' } },
        { name: 'foo', type: { scalar: 'numeric' } },
        { name: 'struct', type: { namedType: 'struct', ...(structRel ? { elementRelationship: structRel } : {}) } },
        { name: 'set', type: { list: { elementType: { scalar: 'numeric' }, elementRelationship: 'associative' } } },
        { name: 'strings', type: { list: { elementType: { scalar: 'string' }, elementRelationship: 'associative' } } },
        { name: 'list', type: { list: { elementType: { namedType: 'item' }, elementRelationship: 'associative', keys: ['name'] } } },
        { name: 'ports', type: { list: { elementType: { namedType: 'port' }, elementRelationship: 'associative', keys: ['port', 'protocol'] } } },
        { name: 'ids', type: { list: { elementType: { namedType: 'idItem' }, elementRelationship: 'associative', keys: ['id'] } } },
      ],
    },
  },
  {
    name: 'struct',
    map: {
      fields: [...scalars('string', 'name', 'f', 'string'), ...scalars('numeric', 'value', 'numeric')],
    },
  },
  {
    name: 'item',
    map: {
      fields: [
        { name: 'name', type: { scalar: 'string' } },
        { name: 'v1', type: { scalar: 'numeric' } },
        { name: 'value', type: { list: { elementType: { scalar: 'string' }, elementRelationship: 'associative' } } },
      ],
    },
  },
  { name: 'port', map: { fields: [...scalars('string', 'protocol', 'name'), ...scalars('numeric', 'port')] } },
  { name: 'idItem', map: { fields: [{ name: 'id', type: { scalar: 'numeric' } }, { name: 'v', type: { scalar: 'numeric' } }] } },
];

/** A scenario on the small schema: `apply`/`update` thread the live object through. */
function smd(o: { types?: TypeDef[]; apiVersion?: string } = {}) {
  const clock = steppingClock();
  const make = (types: TypeDef[], apiVersion: string) => customManager(types, 'root', { now: clock.now, apiVersion });
  let fm = make(o.types ?? TYPES(), o.apiVersion ?? 'example.com/v1');
  let apiVersion = o.apiVersion ?? 'example.com/v1';
  const s = {
    live: undefined as KubeObject | undefined,
    clock,
    /** Switches the endpoint (schema change, another version). */
    use(types: TypeDef[], v = apiVersion) {
      apiVersion = v;
      fm = make(types, v);
    },
    apply(manager: string, body: Record<string, Value>, force = false) {
      clock.tick();
      s.live = fm.apply(s.live, thing(body, apiVersion), manager, force);
      return s.live;
    },
    update(manager: string, body: Record<string, Value>) {
      clock.tick();
      const md = (s.live?.['metadata'] ?? { name: 't' }) as ValueMap;
      s.live = fm.update(s.live, { ...thing(body, apiVersion), metadata: md }, manager);
      return s.live;
    },
    body(): Record<string, Value> {
      const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = s.live as Record<string, Value>;
      return rest;
    },
  };
  return s;
}

/** A scenario on the bundled Deployment type (apps/v1). */
function deployment(o: { resetStatus?: boolean } = {}) {
  const clock = steppingClock();
  const fm = builtinManager('apps/v1', 'Deployment', { now: clock.now, ...(o.resetStatus ? { resetFields: resetFieldsFor('apps/v1', 'Deployment', '')! } : {}) });
  const s = {
    live: undefined as KubeObject | undefined,
    clock,
    fm,
    apply(manager: string, spec: Record<string, Value>, force = false, metadata: Record<string, Value> = {}) {
      clock.tick();
      s.live = fm.apply(s.live, dep(spec, metadata), manager, force);
      return s.live;
    },
    update(manager: string, change: (d: Record<string, Value>) => Record<string, Value>) {
      clock.tick();
      s.live = fm.update(s.live, change(structuredClone((s.live ?? dep({})) as Record<string, Value>)), manager);
      return s.live;
    },
    spec(): ValueMap {
      return (s.live?.['spec'] ?? {}) as ValueMap;
    },
  };
  return s;
}

function dep(spec: Record<string, Value>, metadata: Record<string, Value> = {}): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default', ...metadata }, spec };
}
const containers = (cs: Value[]): Record<string, Value> => ({ template: { spec: { containers: cs } } });
const podSpec = (d: KubeObject) => ((d['spec'] as ValueMap)['template'] as ValueMap)['spec'] as ValueMap;

function conflict(f: () => unknown): ConflictError {
  const e = thrown(f);
  expect(e).toBeInstanceOf(ConflictError);
  return e as ConflictError;
}

describe('08 edge cases: sharing, conflicts, force', () => {
  it('08#1 same value → shared', () => {
    const d = deployment();
    d.apply('A', { replicas: 3 });
    d.apply('B', { replicas: 3 });
    expect(owned(d.live, 'A')).toEqual(['.spec.replicas']);
    expect(owned(d.live, 'B')).toEqual(['.spec.replicas']);
  });

  it('08#2 different value → conflict, nothing changes', () => {
    const d = deployment();
    d.apply('A', { replicas: 3 });
    const before = JSON.stringify(d.live);
    const e = conflict(() => d.apply('B', { replicas: 5 }));
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "A": .spec.replicas');
    expect(JSON.stringify(d.live)).toBe(before);
  });

  it('08#3 force transfers; an emptied entry disappears', () => {
    const d = deployment();
    d.apply('A', { replicas: 3 });
    d.apply('B', { replicas: 5 }, true);
    expect(d.spec()['replicas']).toBe(5);
    expect(entryOf(d.live, 'A')).toBeUndefined();
    expect(owned(d.live, 'B')).toEqual(['.spec.replicas']);
  });

  it('08#4 a shared field changed by one owner conflicts with the other', () => {
    const d = deployment();
    d.apply('A', { replicas: 3 });
    d.apply('B', { replicas: 3 });
    expect(conflict(() => d.apply('A', { replicas: 4 })).message).toBe('Apply failed with 1 conflict: conflict with "B": .spec.replicas');
  });

  it('08#5 update steals silently; the applier then conflicts with "U" using v1', () => {
    const s = smd({ apiVersion: 'v1' });
    s.apply('A', { numeric: 1, string: 's' });
    s.update('U', { numeric: 1, string: 'x', bool: true });
    expect(owned(s.live, 'U')).toEqual(['.bool', '.string']);
    expect(owned(s.live, 'A')).toEqual(['.numeric']);
    expect(conflict(() => s.apply('A', { numeric: 2, string: 't' })).message).toBe('Apply failed with 1 conflict: conflict with "U" using v1: .string');
  });

  it('08#6 an update with the same values takes nothing and changes no time', () => {
    const s = smd();
    s.apply('A', { numeric: 1 });
    const before = JSON.stringify(s.live);
    s.update('U', { numeric: 1 });
    expect(entryOf(s.live, 'U')).toBeUndefined();
    expect(JSON.stringify(s.live)).toBe(before);
  });

  it('08#7 an Update entry of the same name is another manager', () => {
    const d = deployment();
    d.update('x', (o) => ({ ...o, spec: { replicas: 2 } }));
    const e = conflict(() => d.apply('x', { replicas: 3 }));
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "x" using apps/v1: .spec.replicas');
  });

  it('08#8 an atomic list conflicts at the list path', () => {
    const d = deployment();
    d.apply('A', containers([{ name: 'c', image: 'i', args: ['x'] }]));
    const e = conflict(() => d.apply('B', containers([{ name: 'c', args: ['a', 'b'] }])));
    expect(e.conflicts.map((c) => c.field)).toEqual(['.spec.template.spec.containers[name="c"].args']);
  });

  it('08#9 stale ownership of an absent field still conflicts (added counts)', () => {
    const s = smd();
    s.apply('A', { numeric: 1 });
    const mf = entries(s.live).map((e) => ({ ...e, fieldsV1: { 'f:foo': {}, 'f:numeric': {} } }));
    s.live = { ...s.live!, metadata: { ...(s.live!['metadata'] as ValueMap), managedFields: mf as unknown as Value } };
    expect(conflict(() => s.apply('B', { foo: 1 })).message).toBe('Apply failed with 1 conflict: conflict with "A": .foo');
  });
});

describe('08 edge cases: Update ownership shapes', () => {
  it('08#10 an update creating a map owns the map; a later key owns only the key', () => {
    const fm = builtinManager('v1', 'ConfigMap');
    const cm = fm.update(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, 'C');
    const u = fm.update(cm, { ...cm, metadata: { ...(cm['metadata'] as ValueMap), labels: { a: '1' } } }, 'U');
    expect(fieldsV1Of(u, 'U')).toBe('{"f:metadata":{"f:labels":{".":{},"f:a":{}}}}');
    const v = fm.update(u, { ...u, metadata: { ...(u['metadata'] as ValueMap), labels: { a: '1', b: '2' } } }, 'V');
    expect(fieldsV1Of(v, 'V')).toBe('{"f:metadata":{"f:labels":{"f:b":{}}}}');
  });

  it('08#11 an update deleting a field: the owner loses it, the writer gets no entry', () => {
    const s = smd();
    s.apply('A', { string: 's' });
    s.update('U', {});
    expect(entryOf(s.live, 'A')).toBeUndefined();
    expect(entryOf(s.live, 'U')).toBeUndefined();
    expect(s.body()).toEqual({});
  });

  it('08#12 an update creating a list item owns the item and its leaves', () => {
    const d = deployment();
    d.apply('A', { replicas: 1 });
    d.update('U', (o) => ({ ...o, spec: { ...(o['spec'] as ValueMap), ...containers([{ name: 'c', image: 'i' }]) } }));
    expect(fieldsV1Of(d.live, 'U')).toContain('"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:name":{}}');
  });

  it('08#13 a CR created by Update has "." on f:spec; a built-in Deployment has not', () => {
    const cr = customManager('deduced').update(undefined, thing({ spec: { x: 1 } }), 'U');
    expect(fieldsV1Of(cr, 'U')).toBe('{"f:spec":{".":{},"f:x":{}}}');
    const d = builtinManager('apps/v1', 'Deployment').update(undefined, dep({ replicas: 1 }), 'U');
    expect(fieldsV1Of(d, 'U')).toBe('{"f:spec":{"f:replicas":{}}}');
  });

  it('08#14 an empty struct in a created object is owned as a leaf', () => {
    const d = builtinManager('apps/v1', 'Deployment').update(undefined, dep(containers([{ name: 'c', image: 'i', resources: {} }])), 'U');
    expect(fieldsV1Of(d, 'U')).toContain('"f:resources":{}');
    expect(owned(d, 'U')).toContain('.spec.template.spec.containers[name="c"].resources');
  });
});

describe('08 edge cases: Apply ownership shapes', () => {
  it('08#15 a struct field is never "." in Apply', () => {
    expect(fieldsV1Of(deployment().apply('A', { replicas: 1 }), 'A')).toBe('{"f:spec":{"f:replicas":{}}}');
  });

  it('08#16 list items always have "."', () => {
    expect(fieldsV1Of(deployment().apply('A', containers([{ name: 'c', image: 'i' }])), 'A')).toContain('"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:name":{}}');
  });

  it('08#17 defaulted key field: protocol TCP joins the key, only containerPort is owned inside', () => {
    const d = deployment().apply('A', containers([{ name: 'c', ports: [{ containerPort: 80 }] }]));
    expect(fieldsV1Of(d, 'A')).toContain('"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}');
  });

  it('08#18 partial key: a missing key field without default is left out of the key', () => {
    const s = smd();
    s.apply('A', { ports: [{ protocol: 'TCP', name: 'A' }] });
    expect(fieldsV1Of(s.live, 'A')).toBe('{"f:ports":{"k:{\\"protocol\\":\\"TCP\\"}":{".":{},"f:name":{},"f:protocol":{}}}}');
    s.apply('B', { ports: [{ port: 80, protocol: 'TCP', name: 'B' }] });
    expect(s.body()['ports']).toEqual([
      { name: 'A', protocol: 'TCP' },
      { name: 'B', port: 80, protocol: 'TCP' },
    ]);
  });

  it('08#19 an empty associative list claims nothing; live items kept', () => {
    const d = deployment();
    d.apply('U', containers([{ name: 'c', image: 'i' }]));
    d.apply('A', { replicas: 1, ...containers([]) });
    expect(owned(d.live, 'A')).toEqual(['.spec.replicas']);
    expect(podSpec(d.live!)['containers']).toEqual([{ name: 'c', image: 'i', resources: {} }]);
  });

  // Spec vs corpus: the prose says the value is replaced by []; for built-in kinds the Go encoding
  // (omitempty) then drops it, as the corpus records (empty-lists-and-maps-in-pod). A CR keeps [].
  it('08#20 an empty atomic list is owned; a CR keeps [], a built-in encodes it away (corpus: empty-lists-and-maps-in-pod)', () => {
    const d = deployment();
    d.apply('A', containers([{ name: 'c', args: ['x'] }]));
    d.apply('A', containers([{ name: 'c', args: [] }]));
    expect(owned(d.live, 'A')).toContain('.spec.template.spec.containers[name="c"].args');
    expect((podSpec(d.live!)['containers'] as ValueMap[])[0]!).not.toHaveProperty('args');
    const cr = customManager('deduced').apply(undefined, thing({ spec: { args: [] } }), 'A', false);
    expect(owned(cr, 'A')).toEqual(['.spec', '.spec.args']);
    expect(cr['spec']).toEqual({ args: [] });
  });

  it('08#21 a null scalar is owned; the built-in encoding then drops it', () => {
    const d = deployment();
    d.apply('A', { replicas: null });
    expect(owned(d.live, 'A')).toEqual(['.spec.replicas']);
    expect('replicas' in d.spec()).toBe(false);
    const s = smd();
    s.apply('A', { numeric: null });
    expect(s.body()).toEqual({ numeric: null });
  });

  it('08#22 applying only identity fields removes the entry and prunes what only A owned', () => {
    const s = smd();
    s.apply('A', { numeric: 1 });
    s.apply('A', {});
    expect(entryOf(s.live, 'A')).toBeUndefined();
    expect(s.body()).toEqual({});
  });

  it('08#23 the Apply entry apiVersion follows the last apply', () => {
    const s = smd({ apiVersion: 'example.com/v1' });
    s.apply('A', { numeric: 1 });
    s.use(TYPES(), 'example.com/v2');
    s.apply('A', { numeric: 1, string: 's' });
    expect(entries(s.live).map((e) => [e.manager, e.operation, e.apiVersion])).toEqual([['A', 'Apply', 'example.com/v2']]);
    expect(owned(s.live, 'A')).toEqual(['.numeric', '.string']);
  });

  it('08#24 a no-op apply by a new manager: entry without time; A keeps its time', () => {
    const s = smd();
    s.apply('A', { numeric: 1 });
    const t = entryOf(s.live, 'A')!.time;
    s.apply('B', { numeric: 1 });
    expect(entryOf(s.live, 'B')).toBeDefined();
    expect(entryOf(s.live, 'B')!.time).toBeUndefined();
    expect(entryOf(s.live, 'A')!.time).toBe(t);
  });
});

describe('08 edge cases: pruning', () => {
  it('08#25 sole owner drops a field', () => {
    const s = smd();
    s.apply('A', { numeric: 1, string: 's', bool: false });
    s.apply('A', { string: 't' });
    expect(s.body()).toEqual({ string: 't' });
    expect(owned(s.live, 'A')).toEqual(['.string']);
  });

  it('08#26 dropping a field an Update manager co-owns keeps it', () => {
    const s = smd();
    s.update('U', { struct: { name: 'a', f: 'a' } });
    s.apply('A', { struct: { name: 'a', f: 'a' } });
    s.apply('A', { struct: { name: 'a' } });
    expect(s.body()).toEqual({ struct: { name: 'a', f: 'a' } });
    expect(owned(s.live, 'A')).toEqual(['.struct.name']);
    expect(owned(s.live, 'U')).toEqual(['.struct', '.struct.f', '.struct.name']);
  });

  it('08#27 dropping a field another applier co-owns keeps it', () => {
    const s = smd();
    s.apply('B', { struct: { name: 'a', f: 'a' } });
    s.apply('A', { struct: { name: 'a', f: 'a' } });
    s.apply('A', { struct: { name: 'a' } });
    expect(s.body()).toEqual({ struct: { name: 'a', f: 'a' } });
    expect(owned(s.live, 'B')).toEqual(['.struct.f', '.struct.name']);
  });

  it('08#28 dropping a list item whose sub-field an Update manager changed removes the item entirely', () => {
    const s = smd();
    s.apply('A', { list: [{ name: 'a' }, { name: 'b', value: ['c'] }] });
    s.update('U', { list: [{ name: 'a' }, { name: 'b', value: ['c', 'd'] }] });
    expect(owned(s.live, 'U')).toEqual(['.list[name="b"].value[="d"]']);
    s.apply('A', { list: [{ name: 'a' }] });
    expect(s.body()).toEqual({ list: [{ name: 'a' }] });
    expect(entryOf(s.live, 'U')).toBeUndefined();
  });

  it('08#29 dropping a list item another applier also applies keeps it with its values', () => {
    const s = smd();
    s.apply('A', { list: [{ name: 'a' }, { name: 'b', value: ['c'] }] });
    s.apply('B', { list: [{ name: 'b', value: ['d'] }] });
    s.apply('A', { list: [{ name: 'a' }] });
    expect(s.body()).toEqual({ list: [{ name: 'a' }, { name: 'b', value: ['d'] }] });
  });

  it('08#30 removing a struct’s only owned child by applying null', () => {
    const s = smd();
    s.apply('A', { struct: { name: 'a' } });
    s.apply('A', { struct: null });
    expect(s.body()).toEqual({ struct: null });
    expect(owned(s.live, 'A')).toEqual(['.struct']);
  });

  it('08#31 {} keeps others’ children', () => {
    const s = smd();
    s.apply('A', { struct: { name: 'a' } });
    s.update('U', { struct: { name: 'a', value: 1 } });
    s.apply('A', { struct: {} });
    expect(s.body()).toEqual({ struct: { value: 1 } });
  });

  it('08#32 an update took the field over first: nothing is pruned', () => {
    const s = smd();
    s.apply('A', { struct: { name: 'a' } });
    s.update('U', { struct: { name: 'b', value: 1 } });
    s.apply('A', { struct: null });
    expect(s.body()).toEqual({ struct: { name: 'b', value: 1 } });
  });

  it('08#33 an update took over, then the applier omits: the value stays, only U owns it', () => {
    const s = smd();
    s.apply('A', { numeric: 2 });
    s.update('U', { numeric: 1 });
    s.apply('A', {});
    expect(s.body()).toEqual({ numeric: 1 });
    expect(owned(s.live, 'U')).toEqual(['.numeric']);
    expect(entryOf(s.live, 'A')).toBeUndefined();
  });

  it('08#34 an empty config drops everything and the entry', () => {
    const s = smd();
    s.apply('A', { string: 's' });
    s.apply('A', {});
    expect(s.body()).toEqual({});
    expect(entries(s.live)).toEqual([]);
  });

  // Spec vs corpus: the prose says replicas is re-defaulted to 1. Defaulting is not modelled by the
  // recorder or the engine; the corpus (incident-d2-apply-drops-replicas-sole-owner) has it absent.
  it('08#35 pruned replicas is removed and owned by nobody; no re-defaulting (corpus: incident-d2)', () => {
    const d = deployment();
    d.apply('A', { replicas: 3, minReadySeconds: 1 });
    d.apply('A', { minReadySeconds: 1 });
    expect('replicas' in d.spec()).toBe(false);
    expect(owned(d.live, 'A')).toEqual(['.spec.minReadySeconds']);
  });

  it('08#36 obsolete version: without conversion the engine treats every other version as unserved; the old entry is dropped and nothing is pruned', () => {
    const s = smd({ apiVersion: 'example.com/v1' });
    s.apply('A', { list: [{ name: 'a' }, { name: 'b' }] });
    s.update('U', { list: [{ name: 'a' }, { name: 'b' }], numeric: 1 });
    s.use(TYPES(), 'example.com/v2');
    s.apply('A', { list: [{ name: 'a' }] });
    expect(s.body()).toEqual({ list: [{ name: 'a' }, { name: 'b' }], numeric: 1 });
    expect(owned(s.live, 'A')).toEqual(['.list[name="a"]', '.list[name="a"].name']);
    // Limitation (no version conversion): U's entry at a still-served v1 would be converted by the
    // apiserver; the engine drops it as if v1 were no longer served.
    expect(entries(s.live).map((e) => `${e.manager}@${e.apiVersion}`)).toEqual(['A@example.com/v2']);
  });
});

describe('08 edge cases: lists, sets, duplicates, order', () => {
  it('08#37 set elements are v: entries without "."', () => {
    const fm = builtinManager('v1', 'ConfigMap');
    const cm = fm.apply(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', finalizers: ['a', 'b'] } }, 'A', false);
    expect(fieldsV1Of(cm, 'A')).toBe('{"f:metadata":{"f:finalizers":{"v:\\"a\\"":{},"v:\\"b\\"":{}}}}');
  });

  it('08#38 merge order of a set', () => {
    const s = smd();
    s.update('U', { strings: ['a', 'b', 'c', 'd'] });
    s.apply('A', { strings: ['d', 'e', 'f', 'a'] });
    expect(s.body()['strings']).toEqual(['b', 'c', 'd', 'e', 'f', 'a']);
  });

  it('08#39 a reorder by Update is not an ownership change', () => {
    const s = smd();
    s.apply('A', { strings: ['a', 'b'] });
    s.update('U', { strings: ['b', 'a'] });
    expect(entryOf(s.live, 'U')).toBeUndefined();
    expect(s.body()['strings']).toEqual(['b', 'a']);
  });

  it('08#40 duplicates in live: owned once; apply conflicts; force keeps one copy', () => {
    const s = smd();
    s.update('U', { set: [1, 1, 3, 4] });
    expect(owned(s.live, 'U')).toEqual(['.set', '.set[=1]', '.set[=3]', '.set[=4]']);
    const e = conflict(() => s.apply('A', { set: [1] }));
    expect(e.conflicts.map((c) => c.field)).toEqual(['.set[=1]']);
    s.apply('A', { set: [1] }, true);
    expect(s.body()['set']).toEqual([1, 3, 4]);
    expect(owned(s.live, 'A')).toEqual(['.set[=1]']);
    expect(owned(s.live, 'U')).toEqual(['.set', '.set[=3]', '.set[=4]']);
  });

  it('08#41 duplicates in the config are a validation error (HTTP 500)', () => {
    const e = thrown(() => deployment().apply('A', containers([{ name: 'a' }, { name: 'a' }])));
    expect(e).toBeInstanceOf(SsaEngineError);
    expect((e as SsaEngineError).code).toBe('validation');
    expect(e.message).toContain('.spec.template.spec.containers: duplicate entries for key [name="a"]');
  });

  it('08#42 duplicate list-map items in live: the duplicated item is owned without sub-fields', () => {
    const s = smd();
    s.update('U', { list: [{ name: 'a', v1: 1 }, { name: 'a', v1: 2 }, { name: 'b', v1: 3 }] });
    expect(owned(s.live, 'U')).toEqual(['.list', '.list[name="a"]', '.list[name="b"]', '.list[name="b"].name', '.list[name="b"].v1']);
  });
});

describe('08 edge cases: schema-dependent', () => {
  it('08#43 a schema-less CR: every map is a member, a list is one atomic leaf', () => {
    const cr = customManager('deduced').apply(undefined, thing({ spec: { a: { b: 1 }, l: [1, 2] } }), 'A', false);
    expect(fieldsV1Of(cr, 'A')).toBe('{"f:spec":{".":{},"f:a":{".":{},"f:b":{}},"f:l":{}}}');
  });

  it('08#44 granular → atomic: conflict at the struct; force replaces it atomically', () => {
    const s = smd();
    s.apply('A', { struct: { numeric: 1 } });
    s.use(TYPES('atomic'));
    expect(conflict(() => s.apply('B', { struct: { string: 'x' } })).conflicts.map((c) => c.field)).toEqual(['.struct']);
    s.apply('B', { struct: { string: 'x' } }, true);
    expect(s.body()).toEqual({ struct: { string: 'x' } });
    expect(owned(s.live, 'B')).toEqual(['.struct']);
    expect(entryOf(s.live, 'A')).toBeUndefined();
  });

  it('08#45 atomic → granular: no conflict; A keeps the bare struct', () => {
    const s = smd({ types: TYPES('atomic') });
    s.apply('A', { struct: { numeric: 1 } });
    s.use(TYPES());
    s.apply('B', { struct: { string: 'b' } });
    expect(owned(s.live, 'A')).toEqual(['.struct']);
    expect(s.body()).toEqual({ struct: { numeric: 1, string: 'b' } });
  });

  it('08#46 numeric key equality: an int key from an object equals the float key from FieldsV1', () => {
    const fromObject = keyElement([{ name: 'containerPort', value: 80 }]);
    const fromFieldsV1 = [...parseFieldsV1('{"k:{\\"containerPort\\":80}":{}}')][0]![0]!;
    expect(peEquals(fromObject, fromFieldsV1)).toBe(true);
    const set = toFieldSet({ ports: [{ containerPort: 80, protocol: 'TCP' }] }, BUILTIN_SCHEMA.type('io.k8s.api.core.v1.Container'));
    expect(set.has([fieldName('ports'), [...parseFieldsV1('{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{}}')][0]![0]!])).toBe(true);
  });
});

describe('08 edge cases: apiserver layers', () => {
  it('08#47 stripped metadata; labels and annotations kept', () => {
    const d = deployment().apply('A', { replicas: 1 }, false, { uid: 'u-1', resourceVersion: '5', labels: { l: '1' }, annotations: { a: '1' } });
    expect(fieldsV1Of(d, 'A')).toBe('{"f:metadata":{"f:annotations":{"f:a":{}},"f:labels":{"f:l":{}}},"f:spec":{"f:replicas":{}}}');
  });

  // Not modelled by the corpus either (no registry strategies): the engine takes resetFields as an
  // option and ignores them for ownership, but does not restore the old status (the strategy's job).
  it('08#48 status via the main resource: with reset fields the writer does not own it (status itself not restored)', () => {
    const d = deployment({ resetStatus: true });
    d.apply('A', { replicas: 1 });
    const t = entryOf(d.live, 'A')!.time;
    d.update('U', (o) => ({ ...o, status: { replicas: 7 } }));
    expect(entryOf(d.live, 'U')).toBeUndefined();
    expect(owned(d.live, 'A')).toEqual(['.spec.replicas']);
    expect(entryOf(d.live, 'A')!.time).toBe(t);
    expect(d.live!['status']).toEqual({ replicas: 7 });
  });

  it('08#49 cap: 11 Update managers → the two oldest merge into ancient-changes', () => {
    const clock = steppingClock();
    const fm2 = builtinManager('v1', 'ConfigMap', { now: clock.now });
    let cm: KubeObject = fm2.update(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { m0: '0' } }, 'm0');
    for (let i = 1; i <= 10; i++) {
      clock.tick();
      cm = fm2.update(cm, { ...cm, data: { ...(cm['data'] as ValueMap), [`m${i}`]: String(i) } }, `m${i}`);
    }
    const es = entries(cm);
    expect(es.length).toBe(10);
    const ancient = es.find((e) => e.manager === 'ancient-changes')!;
    expect(ancient).toMatchObject({ operation: 'Update', apiVersion: 'v1' });
    expect(parseFieldsV1(ancient.fieldsV1!).toHumanPaths()).toEqual(['.data', '.data.m0', '.data.m1']);
    expect(es.map((e) => e.manager)).not.toContain('m0');
  });

  it('08#50 reset: managedFields [{}] untracks; updates stay untracked; the next apply adds before-first-apply', () => {
    const fm = builtinManager('v1', 'ConfigMap');
    let cm = fm.update(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', uid: 'u-1' }, data: { a: '1' } }, 'C');
    expect(entries(cm).length).toBe(1);
    cm = fm.update(cm, { ...cm, metadata: { ...(cm['metadata'] as ValueMap), managedFields: [{}] } }, 'R');
    expect('managedFields' in (cm['metadata'] as ValueMap)).toBe(false);
    cm = fm.update(cm, { ...cm, data: { a: '1', b: '2' } }, 'U');
    expect(entries(cm)).toEqual([]);
    cm = fm.apply(cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { c: '3' } }, 'A', false);
    expect(entries(cm).map((e) => e.manager).sort()).toEqual(['A', 'before-first-apply']);
    // The Update from an empty object creates the data map too, so it owns `.data` as well.
    expect(owned(cm, 'before-first-apply')).toEqual(['.data', '.data.a', '.data.b']);
  });

  it('08#51 a PUT with a valid non-empty managedFields list replaces the stored list', () => {
    const fm = builtinManager('v1', 'ConfigMap');
    let cm = fm.update(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } }, 'C');
    const edited = [{ manager: 'someone', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }];
    cm = fm.update(cm, { ...cm, metadata: { ...(cm['metadata'] as ValueMap), managedFields: edited as unknown as Value } }, 'E');
    expect(entries(cm).map((e) => e.manager)).toEqual(['someone']);
  });

  it('08#52 scale: A loses replicas; kubectl/Update/scale owns them, without time', () => {
    const d = deployment();
    d.apply('A', { replicas: 3, minReadySeconds: 1 });
    const norm = normalizerFor({ apiVersion: 'apps/v1', kind: 'Deployment' }, true);
    const scaled = updateScale(d.live!, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'd', namespace: 'default' }, spec: { replicas: 5 } }, 'kubectl', {
      now: d.clock.now,
      parentType: BUILTIN_SCHEMA.type('io.k8s.api.apps.v1.Deployment'),
      normalize: norm.normalize,
    });
    expect((scaled['spec'] as ValueMap)['replicas']).toBe(5);
    expect(owned(scaled, 'A')).toEqual(['.spec.minReadySeconds']);
    const k = entryOf(scaled, 'kubectl')!;
    expect(k).toMatchObject({ operation: 'Update', apiVersion: 'apps/v1', subresource: 'scale' });
    expect(owned(scaled, 'kubectl')).toEqual(['.spec.replicas']);
    expect(k.time).toBeUndefined();
  });

  it('08#53 kubectl SSA upgrade: conflicts covered by the last-applied annotation are forced', () => {
    const fm = builtinManager('v1', 'ConfigMap');
    const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { image: 'v1' } };
    const annotation = JSON.stringify(config) + '\n';
    let cm = fm.update(undefined, { ...config, metadata: { name: 'c', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': annotation } } }, 'kubectl-client-side-apply');
    // Another manager than kubectl would conflict with the CSA entry.
    const next = { ...config, data: { image: 'v2' } };
    expect(conflict(() => fm.apply(cm, next, 'other', false)).message).toContain('conflict with "kubectl-client-side-apply" using v1: .data.image');
    cm = fm.apply(cm, next, 'kubectl', false);
    expect((cm['data'] as ValueMap)['image']).toBe('v2');
    expect(owned(cm, 'kubectl', 'Apply')).toEqual(['.data.image']);
    const ann = ((cm['metadata'] as ValueMap)['annotations'] as ValueMap)['kubectl.kubernetes.io/last-applied-configuration'] as string;
    expect(JSON.parse(ann)).toMatchObject({ data: { image: 'v2' } });
  });

  it('08#54 entry ordering: Apply first; by time, then manager; time-less first', () => {
    const clock = steppingClock();
    const fm = builtinManager('v1', 'ConfigMap', { now: clock.now });
    let cm = fm.update(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { z: '1' } }, 'z-update');
    cm = fm.apply(cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { b: '1' } }, 'b', false);
    cm = fm.apply(cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } }, 'a', false);
    cm = fm.apply(cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { z: '1' } }, 'noop', false);
    clock.tick();
    cm = fm.update(cm, { ...cm, data: { ...(cm['data'] as ValueMap), y: '1' } }, 'a-update');
    expect(entries(cm).map((e) => `${e.operation}/${e.manager}/${e.time ?? '-'}`)).toEqual([
      'Apply/noop/-',
      'Apply/a/2026-01-01T10:00:00Z',
      'Apply/b/2026-01-01T10:00:00Z',
      'Update/z-update/2026-01-01T10:00:00Z',
      'Update/a-update/2026-01-01T10:00:01Z',
    ]);
  });

  it('08#55 time semantics: writer’s time = now; a taken-from manager keeps its time; a no-op apply keeps its time', () => {
    const s = smd();
    s.apply('A', { numeric: 1, string: 's' });
    const tA = entryOf(s.live, 'A')!.time;
    s.update('U', { numeric: 2, string: 's' });
    expect(entryOf(s.live, 'U')!.time).toBe(s.clock.now());
    expect(entryOf(s.live, 'A')!.time).toBe(tA);
    s.apply('A', { string: 's' });
    const tA2 = entryOf(s.live, 'A')!.time;
    s.apply('A', { string: 's' });
    expect(entryOf(s.live, 'A')!.time).toBe(tA2);
  });

  it('08#56 label a&b and container x<y: canonical bytes are HTML-escaped only inside k: key strings', () => {
    const d = deployment().apply('A', containers([{ name: 'x<y' }]), false, { labels: { 'a&b': '1' } });
    const bytes = serializeFieldsV1(parseFieldsV1(entryOf(d, 'A')!.fieldsV1!));
    expect(bytes).toContain('"f:a&b":{}');
    // The key string itself is k:{"name":"x\u003cy"}; inside the JSON bytes its backslash is escaped.
    expect(parseFieldsV1(bytes).toHumanPaths()).toContain('.spec.template.spec.containers[name="x<y"]');
    expect([...parseFieldsV1(bytes)].some((p) => p.some((pe) => pe.str === 'k:{"name":"x\\u003cy"}'))).toBe(true);
    expect(bytes).toContain('"k:{\\"name\\":\\"x\\\\u003cy\\"}"');
  });

  it('08#57 conflict path numeric formatting: 1000000 prints as 1e+06', () => {
    const s = smd();
    s.apply('A', { ids: [{ id: 1000000, v: 1 }] });
    const e = conflict(() => s.apply('B', { ids: [{ id: 1000000, v: 2 }] }));
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "A": .ids[id=1e+06].v');
  });
});
