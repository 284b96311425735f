import { SchemaCatalog } from '../../audit/src/index.js';
import { groupVersions } from './discovery.js';
import { openApiV3Document, openApiV3Path } from './openapi.js';
import { builtinResourceTypes } from './resource-type.js';

/** The sandbox's v3 documents as a watcher stores them. */
function documents(change?: (path: string, doc: Record<string, unknown>) => void) {
  const types = builtinResourceTypes();
  return groupVersions(types).flatMap((g) =>
    g.versions.map((v) => {
      const document = openApiV3Document(types, g.group, v)!;
      const path = openApiV3Path(g.group, v);
      change?.(path, document);
      return { cluster: 'sandbox', path, document, hash: `${path}#${change ? 'changed' : 'as-served'}` };
    }),
  );
}

describe('the OpenAPI documents the sandbox publishes', () => {
  it('give every built-in kind the bundled schema back (the same structure as the apiserver of the bundled version)', () => {
    const catalog = new SchemaCatalog(documents());
    const sources = builtinResourceTypes()
      .filter((t) => t.group !== 'apiextensions.k8s.io')
      .map((t) => `${t.kind} ${catalog.resolve(t.group ? `${t.group}/${t.version}` : t.version, t.kind, 'sandbox').source}`);
    expect(sources.filter((s) => !s.endsWith(' bundled'))).toEqual([]);
    expect(sources.length).toBeGreaterThan(10);
  });

  it("make a built-in kind whose published schema differs answer with the cluster's schema", () => {
    const catalog = new SchemaCatalog(
      documents((path, doc) => {
        if (path !== 'api/v1') return;
        const schemas = (doc['components'] as { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> }).schemas;
        const data = schemas['io.k8s.api.core.v1.ConfigMap']!.properties['data']!;
        schemas['io.k8s.api.core.v1.ConfigMap']!.properties['data'] = { ...data, 'x-kubernetes-map-type': 'atomic' };
      }),
    );
    expect(catalog.resolve('v1', 'ConfigMap', 'sandbox')).toMatchObject({ source: 'cluster', typeName: 'io.k8s.api.core.v1.ConfigMap' });
    expect(catalog.resolve('v1', 'Secret', 'sandbox').source).toBe('bundled');
  });
});
