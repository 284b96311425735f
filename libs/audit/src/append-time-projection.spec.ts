import { foldsAtAppend, type ProjectedStamp } from './append-time-projection.js';
import { defaultSchemaResolver, type SchemaResolver } from './schema-resolver.port.js';

describe('foldsAtAppend: may an append fold the events it stores onto the stored state?', () => {
  const kind = { cluster: 'c1', group: 'apps', version: 'v1', kind: 'Deployment' };
  const chosen = defaultSchemaResolver('apps/v1', 'Deployment', 'c1').digest;
  const stamp = (lastSeq: string, digest: string | null = chosen): ProjectedStamp => ({ ...kind, lastSeq, digest });
  const changed: SchemaResolver = (apiVersion, k, cluster) => ({ ...defaultSchemaResolver(apiVersion, k, cluster), digest: 'another-digest' });

  it('folds a new object (no earlier event, no state)', () => {
    expect(foldsAtAppend(null, undefined, defaultSchemaResolver)).toBe(true);
  });

  it('folds onto a state that holds the object\'s newest earlier event, folded with the schema chosen now', () => {
    expect(foldsAtAppend('41', stamp('41'), defaultSchemaResolver)).toBe(true);
    // States stored before schemas were recorded were folded with the default choice.
    expect(foldsAtAppend('41', stamp('41', null), defaultSchemaResolver)).toBe(true);
  });

  it('leaves to the log walk an object whose state is behind, missing, or unexpected', () => {
    expect(foldsAtAppend('41', stamp('40'), defaultSchemaResolver)).toBe(false);
    expect(foldsAtAppend('41', undefined, defaultSchemaResolver)).toBe(false);
    expect(foldsAtAppend(null, stamp('41'), defaultSchemaResolver)).toBe(false);
  });

  it('leaves to the log walk a state folded with a schema no longer chosen (it is projected again first)', () => {
    expect(foldsAtAppend('41', stamp('41'), changed)).toBe(false);
    expect(foldsAtAppend('41', stamp('41', null), changed)).toBe(false);
  });
});
