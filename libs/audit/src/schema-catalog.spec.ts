import { evolveObjectOwnership } from './object-ownership.projection.js';
import { fieldOwners } from './field-owners.read-model.js';
import { ownershipSnapshotOf } from './ownership-version.js';
import { SchemaCatalog, type ClusterSchemaDocument } from './schema-catalog.js';
import { schemaDigest } from './schema-digest.js';
import { bundledChoice, defaultSchemaResolver } from './schema-resolver.port.js';
import { staleSchemaGroups } from './schema-staleness.js';
import type { ObservedEvent } from './observed-event.types.js';
import { widgetDocument, widgetItemEntry } from './testing/widget-crd.fixture.js';

const doc = (path: string, document: unknown, hash = path): ClusterSchemaDocument => ({ cluster: 'east', path, document, hash });

const widget = (managedFields: unknown[]): ObservedEvent => ({
  seq: '1',
  observedAt: '2026-11-25T10:00:00Z',
  source: 'watch',
  watchType: 'ADDED',
  objectId: '7',
  cluster: 'east',
  uid: 'u-1',
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  namespace: 'default',
  name: 'w',
  resourceVersion: '10',
  object: {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'default', uid: 'u-1', resourceVersion: '10', managedFields },
    spec: { items: [{ name: 'a', size: 1 }, { name: 'b', size: 2 }] },
  },
} as unknown as ObservedEvent);

const entry = widgetItemEntry;

describe('SchemaCatalog', () => {
  it("answers a custom resource with the cluster's published schema: a keyed list has an owner per item", () => {
    const catalog = new SchemaCatalog([doc('apis/example.com/v1', widgetDocument('map'))]);
    const choice = catalog.resolve('example.com/v1', 'Widget', 'east');
    expect({ source: choice.source, typeName: choice.typeName }).toEqual({ source: 'cluster', typeName: 'com.example.v1.Widget' });
    const { state } = evolveObjectOwnership(undefined, widget([entry('team-a', 'a'), entry('team-b', 'b')]), catalog.resolve);
    expect(state.schema).toEqual({ source: 'cluster', typeName: 'com.example.v1.Widget', digest: choice.digest });
    const owners = (path: string) => fieldOwners(ownershipSnapshotOf(state), path, catalog.resolve).owners.map((o) => o.manager);
    expect(owners('.spec.items[name="a"].size')).toEqual(['team-a']);
    expect(owners('.spec.items[name="b"].size')).toEqual(['team-b']);
  });

  it('falls back to the deduced schema for a kind no stored document names, and to the bundled one for built-ins', () => {
    const catalog = new SchemaCatalog([doc('apis/example.com/v1', widgetDocument('map'))]);
    expect(catalog.resolve('example.com/v1', 'Gadget', 'east').source).toBe('deduced');
    expect(catalog.resolve('example.com/v1', 'Widget', 'west').source).toBe('deduced');
    expect(catalog.resolve('apps/v1', 'Deployment', 'east')).toBe(bundledChoice('io.k8s.api.apps.v1.Deployment'));
  });

  it('converts a document once per content, across catalogs', () => {
    const cache = new Map();
    const first = new SchemaCatalog([doc('apis/example.com/v1', widgetDocument('map'), 'h1')], cache);
    const type = first.resolve('example.com/v1', 'Widget', 'east').type;
    const second = new SchemaCatalog([doc('apis/example.com/v1', null, 'h1')], cache);
    expect(second.resolve('example.com/v1', 'Widget', 'east').type).toBe(type);
    // Neither given nor converted before: as if not stored.
    expect(new SchemaCatalog([doc('apis/example.com/v1', null, 'h2')], cache).resolve('example.com/v1', 'Widget', 'east').source).toBe('deduced');
  });
});

describe('staleSchemaGroups', () => {
  const group = (digest: string | null, kind = 'Widget', g = 'example.com') => ({ cluster: 'east', group: g, version: 'v1', kind, digest, objects: 3 });

  it('finds the objects folded with another schema than the one chosen now', () => {
    const mapCatalog = new SchemaCatalog([doc('apis/example.com/v1', widgetDocument('map'))]);
    const atomic = new SchemaCatalog([doc('apis/example.com/v1', widgetDocument('atomic'))]).resolve('example.com/v1', 'Widget', 'east').digest;
    const now = mapCatalog.resolve('example.com/v1', 'Widget', 'east').digest;
    expect(staleSchemaGroups([group('deduced'), group(atomic), group(now)], mapCatalog.resolve).map((g) => g.digest)).toEqual(['deduced', atomic]);
  });

  it("reads states stored before schemas were recorded as folded with the default resolver's choice", () => {
    const empty = new SchemaCatalog([]);
    expect(staleSchemaGroups([group(null), group(null, 'ConfigMap', '')], empty.resolve)).toEqual([]);
    const withWidget = new SchemaCatalog([doc('apis/example.com/v1', widgetDocument('map'))]);
    expect(staleSchemaGroups([group(null), group(null, 'ConfigMap', '')], withWidget.resolve).map((g) => g.kind)).toEqual(['Widget']);
    expect(defaultSchemaResolver('example.com/v1', 'Widget', 'east').digest).toBe('deduced');
  });
});

describe('schemaDigest', () => {
  it('spells out default element relationships, so equal structures written differently agree', () => {
    expect(schemaDigest([{ name: 't', map: { elementType: { scalar: 'string' } } }])).toBe(
      schemaDigest([{ name: 't', map: { elementType: { scalar: 'string' }, elementRelationship: 'separable' } }]),
    );
    expect(schemaDigest([{ name: 't', list: { elementType: { scalar: 'string' } } }])).not.toBe(
      schemaDigest([{ name: 't', list: { elementType: { scalar: 'string' }, elementRelationship: 'associative' } }]),
    );
  });
});
