import { toFieldSet } from '../../ssa-engine/src/index.js';
import { crdResourceTypes, defaultCrdSchemaConverter, pruneUnknownFields } from './crd.js';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'zone'], items: { type: 'object', properties: { name: { type: 'string' }, zone: { type: 'string' }, size: { type: 'integer' } } } },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        args: { type: 'array', items: { type: 'string' } },
        selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: { type: 'string' } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        port: { 'x-kubernetes-int-or-string': true },
      },
    },
  },
};

describe('CRD schemas', () => {
  const type = defaultCrdSchemaConverter(schema, 'example.com.v1.Thing');
  const paths = (o: unknown) => toFieldSet(o as never, type).toHumanPaths();

  it('honours list types, map types, preserve-unknown-fields and int-or-string', () => {
    const obj = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 't', labels: { a: 'b' } },
      spec: { items: [{ name: 'a', zone: 'z', size: 1 }], tags: ['x'], args: ['1'], selector: { a: 'b' }, labels: { k: 'v' }, free: { deep: { x: 1 } }, port: 'http' },
    };
    expect(paths(obj)).toEqual(
      expect.arrayContaining([
        '.spec.items[name="a",zone="z"].size',
        '.spec.tags[="x"]',
        '.spec.args',
        '.spec.selector',
        '.spec.labels.k',
        '.spec.free.deep.x',
        '.spec.port',
        '.metadata.labels.a',
      ]),
    );
    expect(paths(obj)).not.toContain('.spec.selector.a');
  });

  it('prunes what the schema does not declare, keeping preserved subtrees', () => {
    expect(pruneUnknownFields({ spec: { args: ['a'], nope: 1, free: { any: { thing: 1 } } }, top: 1 }, type)).toEqual({ spec: { args: ['a'], free: { any: { thing: 1 } } } });
  });

  it('turns a CRD into one resource type per served version and rejects malformed ones', () => {
    const crd = {
      metadata: { name: 'things.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Cluster',
        names: { plural: 'things', kind: 'Thing', shortNames: ['th'] },
        versions: [
          { name: 'v1', served: true, storage: true, subresources: { status: {} } },
          { name: 'v2', served: false },
        ],
      },
    };
    const types = crdResourceTypes(crd, defaultCrdSchemaConverter);
    expect(types.map((t) => [t.apiVersion, t.plural, t.singular, t.namespaced, t.status, t.shortNames])).toEqual([['example.com/v1', 'things', 'thing', false, true, ['th']]]);
    expect(() => crdResourceTypes({ ...crd, metadata: { name: 'wrong' } }, defaultCrdSchemaConverter)).toThrow('must be spec.names.plural+"."+spec.group');
    expect(() => crdResourceTypes({ spec: {} }, defaultCrdSchemaConverter)).toThrow('spec.group: Required value');
  });
});
