import { SsaEngineError } from '../errors.js';
import {
  findTypeForGvk,
  safeSchemaFromCrd,
  safeSchemaFromDefinitions,
  safeSchemaFromOpenApi,
  schemaFromCrd,
  schemaFromOpenApi,
  type OpenApiConversionOptions,
} from './from-openapi.js';
import { Schema } from './resolved-schema.js';
import type { TypeDef } from './schema.js';

const v3 = (schemas: Record<string, unknown>): unknown => ({ openapi: '3.0.0', components: { schemas } });
const v2 = (definitions: Record<string, unknown>): unknown => ({ swagger: '2.0', definitions });

/** Converts one definition `T` and returns its type def without the name. */
function convert(node: unknown, options?: OpenApiConversionOptions): { def: Omit<TypeDef, 'name'>; errors: string[] } {
  const result = safeSchemaFromDefinitions({ T: node }, options);
  const t = result.document.types.find((x) => x.name === 'T');
  const { name: _name, ...def } = t ?? { name: '' };
  return { def, errors: result.errors.map((e) => e.message) };
}
const atom = (node: unknown, options?: OpenApiConversionOptions): Omit<TypeDef, 'name'> => {
  const { def, errors } = convert(node, options);
  expect(errors).toEqual([]);
  return def;
};
const field = (node: unknown): unknown => (atom({ type: 'object', properties: { f: node } }).map?.fields ?? [])[0];

const DEDUCED = { namedType: '__untyped_deduced_' };
const ATOMIC = { namedType: '__untyped_atomic_' };

describe('OpenAPI → SchemaDocument: type mapping (02 §2.1)', () => {
  it.each([
    [{ type: 'integer', format: 'int32' }, 'numeric'],
    [{ type: 'number', format: 'double' }, 'numeric'],
    [{ type: 'boolean' }, 'boolean'],
    [{ type: 'string' }, 'string'],
    [{ type: 'string', format: '' }, 'string'],
    [{ type: 'string', format: 'byte' }, 'string'],
    [{ type: 'string', format: 'int-or-string' }, 'untyped'],
    [{ type: 'string', format: 'date-time' }, 'untyped'],
    [{ type: 'string', format: 'quantity' }, 'untyped'],
  ])('%j → scalar %s', (node, scalar) => {
    expect(atom(node)).toEqual({ scalar });
  });

  it('type: object → map facet only', () => {
    expect(atom({ type: 'object', properties: { a: { type: 'string' } } })).toEqual({
      map: { fields: [{ name: 'a', type: { scalar: 'string' } }] },
    });
  });

  it('type: array → list facet only', () => {
    expect(atom({ type: 'array', items: { type: 'string' } })).toEqual({
      list: { elementType: { scalar: 'string' }, elementRelationship: 'atomic' },
    });
  });

  it('no type (x-kubernetes-int-or-string) → untyped scalar + list + map from the same node', () => {
    expect(atom({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] })).toEqual({
      scalar: 'untyped',
      list: { elementType: ATOMIC, elementRelationship: 'atomic' },
      map: { elementType: DEDUCED },
    });
  });

  it('no type with preserve-unknown-fields → untyped + list + map, the map keeping its properties', () => {
    expect(atom({ 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } })).toEqual({
      scalar: 'untyped',
      list: { elementType: ATOMIC, elementRelationship: 'atomic' },
      map: { fields: [{ name: 'a', type: { scalar: 'string' } }], elementType: DEDUCED },
    });
  });

  it('an unknown type string → scalar untyped and an error', () => {
    const { def, errors } = convert({ type: 'file' });
    expect(def).toEqual({ scalar: 'untyped' });
    expect(errors).toEqual(['unrecognized type: "file"']);
  });

  it('a type list uses its first entry', () => {
    expect(atom({ type: ['string', 'null'] })).toEqual({ scalar: 'string' });
  });

  it('Quantity and RawExtension are hard-coded', () => {
    const doc = schemaFromOpenApi(
      v3({
        'io.k8s.apimachinery.pkg.api.resource.Quantity': { oneOf: [{ type: 'string' }, { type: 'number' }] },
        'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
        T: {
          type: 'object',
          properties: {
            q: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' },
            r: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension' },
            r2: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension' }] },
          },
        },
      }),
    );
    const byName = new Map(doc.types.map((t) => [t.name, t]));
    expect(byName.get('io.k8s.apimachinery.pkg.api.resource.Quantity')).toEqual({
      name: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      scalar: 'untyped',
    });
    expect(byName.get('T')?.map?.fields).toEqual([
      { name: 'q', type: { namedType: 'io.k8s.apimachinery.pkg.api.resource.Quantity' } },
      { name: 'r', type: ATOMIC },
      { name: 'r2', type: ATOMIC },
    ]);
    // the RawExtension definition itself is the untyped atomic type
    const raw = new Schema(doc).type('io.k8s.apimachinery.pkg.runtime.RawExtension');
    expect(raw.map?.atomic).toBe(true);
    expect(raw.list?.atomic).toBe(true);
  });

  it('$ref and single-element allOf $ref → a reference to the last path segment', () => {
    expect(field({ $ref: '#/definitions/io.k8s.api.core.v1.PodSpec' })).toEqual({
      name: 'f',
      type: { namedType: 'io.k8s.api.core.v1.PodSpec' },
    });
    expect(field({ allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodSpec' }], default: {} })).toEqual({
      name: 'f',
      type: { namedType: 'io.k8s.api.core.v1.PodSpec' },
      default: {},
    });
  });

  it('an allOf with several entries is not a reference (converted inline)', () => {
    expect(field({ allOf: [{ $ref: '#/definitions/A' }, { $ref: '#/definitions/B' }] })).toEqual({
      name: 'f',
      type: { scalar: 'untyped', list: { elementType: ATOMIC, elementRelationship: 'atomic' }, map: { elementType: DEDUCED } },
    });
  });

  it('x-kubernetes-map-type next to a $ref becomes an element-relationship override', () => {
    expect(field({ allOf: [{ $ref: '#/definitions/S' }], 'x-kubernetes-map-type': 'atomic' })).toEqual({
      name: 'f',
      type: { namedType: 'S', elementRelationship: 'atomic' },
    });
    expect(field({ $ref: '#/definitions/S', 'x-kubernetes-map-type': 'granular' })).toEqual({
      name: 'f',
      type: { namedType: 'S', elementRelationship: 'separable' },
    });
    const { def, errors } = convert({ type: 'object', properties: { f: { $ref: '#/definitions/S', 'x-kubernetes-map-type': 'weird' } } });
    expect(def.map?.fields?.[0]).toEqual({ name: 'f', type: { namedType: 'S' } });
    expect(errors).toEqual(['unknown map type "weird"']);
  });

  it('an inline sub-schema → an inline atom', () => {
    expect(field({ type: 'object', properties: { x: { type: 'integer' } } })).toEqual({
      name: 'f',
      type: { map: { fields: [{ name: 'x', type: { scalar: 'numeric' } }] } },
    });
  });

  it('top-level references are skipped', () => {
    const doc = schemaFromOpenApi(v2({ A: { $ref: '#/definitions/B' }, B: { type: 'string' } }));
    expect(doc.types.map((t) => t.name)).toEqual(['B', '__untyped_atomic_', '__untyped_deduced_']);
  });

  it('validation keywords, enum, nullable, required are ignored', () => {
    expect(
      atom({
        type: 'object',
        required: ['a'],
        nullable: true,
        properties: { a: { type: 'string', enum: ['x'], minLength: 1, 'x-kubernetes-validations': [{ rule: 'true' }] } },
      }),
    ).toEqual({ map: { fields: [{ name: 'a', type: { scalar: 'string' } }] } });
  });
});

describe('OpenAPI → SchemaDocument: objects (02 §2.2)', () => {
  it('properties → struct fields (sorted), with defaults when given', () => {
    expect(
      atom({
        type: 'object',
        properties: {
          protocol: { type: 'string', default: 'TCP' },
          containerPort: { type: 'integer', default: 0 },
          name: { type: 'string' },
          nothing: { type: 'string', default: null },
        },
      }).map?.fields,
    ).toEqual([
      { name: 'containerPort', type: { scalar: 'numeric' }, default: 0 },
      { name: 'name', type: { scalar: 'string' } },
      { name: 'nothing', type: { scalar: 'string' } },
      { name: 'protocol', type: { scalar: 'string' }, default: 'TCP' },
    ]);
  });

  it.each([
    ['no properties, no additionalProperties', { type: 'object' }, { elementType: DEDUCED }],
    ['properties, no additionalProperties', { type: 'object', properties: { a: { type: 'string' } } }, undefined],
    ['additionalProperties schema', { type: 'object', additionalProperties: { type: 'string' } }, { elementType: { scalar: 'string' } }],
    ['additionalProperties $ref', { type: 'object', additionalProperties: { $ref: '#/definitions/Q' } }, { elementType: { namedType: 'Q' } }],
    ['additionalProperties: true', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }, { elementType: DEDUCED }],
    ['additionalProperties: false', { type: 'object', additionalProperties: false }, undefined],
    ['additionalProperties: {}', { type: 'object', additionalProperties: {} }, {
      elementType: { scalar: 'untyped', list: { elementType: ATOMIC, elementRelationship: 'atomic' }, map: { elementType: DEDUCED } },
    }],
  ])('element type: %s', (_name, node, expected) => {
    const map = atom(node).map!;
    const { fields: _fields, ...rest } = map;
    expect(rest).toEqual(expected ?? {});
  });

  it.each([
    ['atomic', { elementRelationship: 'atomic' }],
    ['granular', { elementRelationship: 'separable' }],
  ])('x-kubernetes-map-type: %s', (mapType, expected) => {
    expect(atom({ type: 'object', 'x-kubernetes-map-type': mapType }).map).toEqual({ elementType: DEDUCED, ...expected });
  });

  it('x-kubernetes-map-type absent → separable by default (no relationship written)', () => {
    const doc = schemaFromOpenApi(v3({ T: { type: 'object', additionalProperties: { type: 'string' } } }));
    expect(doc.types[0]?.map?.elementRelationship).toBeUndefined();
    expect(new Schema(doc).type('T').map?.atomic).toBe(false);
  });

  it('x-kubernetes-map-type with another value is an error (separable)', () => {
    const { def, errors } = convert({ type: 'object', 'x-kubernetes-map-type': 'nope' });
    expect(def.map).toEqual({ elementType: DEDUCED });
    expect(errors).toEqual(['unknown map type "nope"']);
  });
});

describe('OpenAPI → SchemaDocument: arrays (02 §2.3)', () => {
  const list = (ext: Record<string, unknown>, items: unknown = { type: 'string' }): unknown =>
    convert({ type: 'array', items, ...ext });

  it.each([
    ['list-type atomic', { 'x-kubernetes-list-type': 'atomic' }, { elementRelationship: 'atomic' }],
    ['list-type set', { 'x-kubernetes-list-type': 'set' }, { elementRelationship: 'associative' }],
    [
      'list-type map with keys',
      { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'] },
      { elementRelationship: 'associative', keys: ['containerPort', 'protocol'] },
    ],
    [
      'list-type wins over patch strategy',
      { 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
      { elementRelationship: 'atomic' },
    ],
    [
      'patch strategy merge with merge key',
      { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
      { elementRelationship: 'associative', keys: ['name'] },
    ],
    ['patch strategy merge without merge key → set', { 'x-kubernetes-patch-strategy': 'merge' }, { elementRelationship: 'associative' }],
    [
      'patch strategy merge,retainKeys',
      { 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-patch-merge-key': 'name' },
      { elementRelationship: 'associative', keys: ['name'] },
    ],
    ['patch strategy retainKeys → atomic', { 'x-kubernetes-patch-strategy': 'retainKeys' }, { elementRelationship: 'atomic' }],
    ['nothing → atomic', {}, { elementRelationship: 'atomic' }],
  ])('%s', (_name, ext, expected) => {
    expect(list(ext)).toEqual({ def: { list: { elementType: { scalar: 'string' }, ...expected } }, errors: [] });
  });

  it.each([
    ['list-type map without keys', { 'x-kubernetes-list-type': 'map' }, 'associative', 'missing map keys'],
    [
      'list-type map with keys that are not a list',
      { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': 'name' },
      'associative',
      'uninterpreted map keys: "name"',
    ],
    ['unknown list type', { 'x-kubernetes-list-type': 'bag' }, 'atomic', 'unknown list type "bag"'],
    ['unknown patch strategy', { 'x-kubernetes-patch-strategy': 'replace' }, 'atomic', 'unknown patch strategy "replace"'],
    [
      'merge key that is not a string',
      { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': ['a'] },
      'associative',
      'uninterpreted merge key: ["a"]',
    ],
  ])('%s → %s and an error', (_name, ext, relationship, message) => {
    expect(list(ext)).toEqual({
      def: { list: { elementType: { scalar: 'string' }, elementRelationship: relationship } },
      errors: [message],
    });
  });

  it('items → element type; $ref items → named element type', () => {
    expect(atom({ type: 'array', items: { $ref: '#/definitions/C' } }).list?.elementType).toEqual({ namedType: 'C' });
    expect(atom({ type: 'array', items: { allOf: [{ $ref: '#/definitions/C' }], default: {} } }).list?.elementType).toEqual({
      namedType: 'C',
    });
  });

  it('an array without items → __untyped_atomic_ elements (reported for type: array)', () => {
    expect(convert({ type: 'array' })).toEqual({
      def: { list: { elementType: ATOMIC, elementRelationship: 'atomic' } },
      errors: ['`items` must be specified on arrays'],
    });
  });

  it('tuple items are an error', () => {
    expect(convert({ type: 'array', items: [{ type: 'string' }] })).toEqual({
      def: { list: { elementType: DEDUCED, elementRelationship: 'atomic' } },
      errors: ['structural schema arrays must have exactly one member subtype'],
    });
  });
});

describe('OpenAPI → SchemaDocument: preserve-unknown-fields (02 §2.4)', () => {
  it('applies to the node and its inline descendants, not across $ref', () => {
    const doc = schemaFromOpenApi(
      v3({
        T: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: {
            inline: { type: 'object', properties: { a: { type: 'string' } } },
            list: { type: 'array', items: { type: 'object', properties: { b: { type: 'string' } } } },
            named: { $ref: '#/components/schemas/N' },
          },
        },
        N: { type: 'object', properties: { c: { type: 'string' } } },
      }),
    );
    const s = new Schema(doc);
    const t = s.type('T');
    expect(t.map?.elementType?.name).toBe('__untyped_deduced_');
    expect(t.map?.fields.get('inline')?.type.map?.elementType?.name).toBe('__untyped_deduced_');
    expect(t.map?.fields.get('list')?.type.list?.elementType.map?.elementType?.name).toBe('__untyped_deduced_');
    expect(t.map?.fields.get('named')?.type.map?.elementType).toBeUndefined();
  });

  it('a sibling without the extension is not affected', () => {
    const def = atom({
      type: 'object',
      properties: {
        p: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
        q: { type: 'object', properties: { a: { type: 'string' } } },
      },
    });
    expect(def.map?.fields?.[0]?.type.map?.elementType).toEqual(DEDUCED);
    expect(def.map?.fields?.[1]?.type.map?.elementType).toBeUndefined();
  });

  it('the preserveUnknownFields option converts every definition in that mode', () => {
    expect(atom({ type: 'object', properties: { a: { type: 'string' } } }, { preserveUnknownFields: true }).map?.elementType).toEqual(
      DEDUCED,
    );
  });
});

describe('OpenAPI documents', () => {
  const definitions = {
    'io.k8s.api.apps.v1.Deployment': {
      type: 'object',
      properties: { spec: { $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec' } },
      'x-kubernetes-group-version-kind': [{ group: 'apps', kind: 'Deployment', version: 'v1' }],
    },
    'io.k8s.api.apps.v1.DeploymentSpec': { type: 'object', properties: { replicas: { type: 'integer' } } },
    'io.k8s.api.core.v1.Pod': {
      type: 'object',
      properties: { kind: { type: 'string' } },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'Pod', version: 'v1' }],
    },
    'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions': {
      type: 'object',
      'x-kubernetes-group-version-kind': [
        { group: '', kind: 'DeleteOptions', version: 'v1' },
        { group: 'apps', kind: 'DeleteOptions', version: 'v1' },
      ],
    },
  };
  const v3Definitions = JSON.parse(JSON.stringify(definitions).replaceAll('#/definitions/', '#/components/schemas/')) as Record<
    string,
    unknown
  >;

  it('v2 and v3 documents convert to the same SchemaDocument, types sorted, untyped built-ins last', () => {
    const a = schemaFromOpenApi(v2(definitions));
    const b = schemaFromOpenApi(v3(v3Definitions));
    expect(a).toEqual(b);
    expect(a.types.map((t) => t.name)).toEqual([
      'io.k8s.api.apps.v1.Deployment',
      'io.k8s.api.apps.v1.DeploymentSpec',
      'io.k8s.api.core.v1.Pod',
      'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
      '__untyped_atomic_',
      '__untyped_deduced_',
    ]);
  });

  it('finds the type of a GVK through x-kubernetes-group-version-kind', () => {
    for (const doc of [v2(definitions), v3(v3Definitions)]) {
      expect(findTypeForGvk(doc, 'apps/v1', 'Deployment')).toBe('io.k8s.api.apps.v1.Deployment');
      expect(findTypeForGvk(doc, { group: '', version: 'v1', kind: 'Pod' })).toBe('io.k8s.api.core.v1.Pod');
      expect(findTypeForGvk(doc, 'v1', 'Pod')).toBe('io.k8s.api.core.v1.Pod');
      expect(findTypeForGvk(doc, 'apps/v1', 'DeleteOptions')).toBe('io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions');
      expect(findTypeForGvk(doc, 'apps/v2', 'Deployment')).toBeUndefined();
      expect(findTypeForGvk(doc, 'v1', 'Deployment')).toBeUndefined();
    }
  });

  it('result form collects every issue; throwing form reports them all', () => {
    const doc = v3({ A: { type: 'file' }, B: { type: 'array' }, C: 'nonsense' });
    const result = safeSchemaFromOpenApi(doc);
    expect(result.errors).toEqual([
      { type: 'A', message: 'unrecognized type: "file"' },
      { type: 'B', message: '`items` must be specified on arrays' },
      { type: 'C', message: 'definition is not a schema object' },
    ]);
    expect(result.document.types.map((t) => t.name)).toEqual(['A', 'B', '__untyped_atomic_', '__untyped_deduced_']);
    expect(() => schemaFromOpenApi(doc)).toThrow(
      expect.objectContaining({
        code: 'schema-conversion',
        message: 'A: unrecognized type: "file"\nB: `items` must be specified on arrays\nC: definition is not a schema object',
      }) as SsaEngineError,
    );
  });

  it('rejects a document that is not OpenAPI', () => {
    expect(() => safeSchemaFromOpenApi({ paths: {} })).toThrow(expect.objectContaining({ code: 'schema-conversion' }) as SsaEngineError);
    expect(() => safeSchemaFromOpenApi(null)).toThrow(expect.objectContaining({ code: 'schema-conversion' }) as SsaEngineError);
  });

  it('untrusted definition and property names are kept as data', () => {
    const doc = JSON.parse(
      '{"definitions":{"__proto__":{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"integer"}}}}}',
    ) as unknown;
    const result = schemaFromOpenApi(doc);
    expect(result.types[0]?.name).toBe('__proto__');
    expect(result.types[0]?.map?.fields?.map((f) => f.name)).toEqual(['__proto__', 'constructor']);
  });

  it('deeply nested inline schemas stop at MAX_DEPTH with an error', () => {
    let node: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 300; i++) node = { type: 'array', items: node };
    const result = safeSchemaFromDefinitions({ T: node });
    expect(result.errors.map((e) => e.message)).toContain('schema nested deeper than 256');
  });
});

describe('CRD openAPIV3Schema → root type', () => {
  const crd = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer' },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
          },
          config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          port: { 'x-kubernetes-int-or-string': true },
        },
      },
      metadata: { type: 'object' },
    },
  };

  it('converts the schema into a root type with apiVersion, kind and metadata → ObjectMeta', () => {
    const { document, rootType } = schemaFromCrd(crd, { typeName: 'com.example.v1.Widget' });
    expect(rootType).toBe('com.example.v1.Widget');
    expect(document.types[0]?.name).toBe('com.example.v1.Widget');
    const s = new Schema(document);
    const root = s.type(rootType);
    expect([...root.map!.fields.keys()]).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(root.map?.fields.get('metadata')?.type.name).toBe('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    // ObjectMeta and everything it needs come along
    expect(root.map?.fields.get('metadata')?.type.map?.fields.get('ownerReferences')?.type.list?.keys).toEqual(['uid']);
    expect(s.has('io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry')).toBe(true);
    const spec = root.map!.fields.get('spec')!.type;
    expect(spec.map?.elementType).toBeUndefined();
    expect(spec.map?.fields.get('ports')?.type.list).toMatchObject({ associative: true, keys: ['name'] });
    expect(spec.map?.fields.get('config')?.type.map?.elementType?.name).toBe('__untyped_deduced_');
    expect(spec.map?.fields.get('port')?.type.scalar).toBe('untyped');
  });

  it('without standard fields only the given schema is converted', () => {
    const { document } = schemaFromCrd(crd, { standardFields: false });
    expect(document.types.map((t) => t.name)).toEqual(['io.k8s.crd.Root', '__untyped_atomic_', '__untyped_deduced_']);
    expect(document.types[0]?.map?.fields?.find((f) => f.name === 'metadata')?.type).toEqual({ map: { elementType: DEDUCED } });
  });

  it('legacy spec.preserveUnknownFields converts the whole schema in preserve mode', () => {
    const { document, rootType } = schemaFromCrd(crd, { preserveUnknownFields: true });
    const s = new Schema(document);
    expect(s.type(rootType).map?.elementType?.name).toBe('__untyped_deduced_');
    expect(s.type(rootType).map?.fields.get('spec')?.type.map?.elementType?.name).toBe('__untyped_deduced_');
    // ObjectMeta is a referenced type: not in preserve mode
    expect(s.type('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta').map?.elementType).toBeUndefined();
  });

  it('issues are collected (result form) or thrown (schemaFromCrd)', () => {
    const bad = { type: 'object', properties: { spec: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object' } } } };
    expect(safeSchemaFromCrd(bad).errors).toEqual([{ type: 'io.k8s.crd.Root', message: 'missing map keys' }]);
    expect(() => schemaFromCrd(bad)).toThrow(expect.objectContaining({ code: 'schema-conversion' }) as SsaEngineError);
    expect(safeSchemaFromCrd('x').errors).toHaveLength(1);
  });
});
