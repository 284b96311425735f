import { BUILTIN_SCHEMA, builtinTypeName, DEDUCED_TYPE } from '../../../ssa-engine/src/index.js';
import { ApiError } from '../api-error.js';
import { applyPatch } from './apply-patch.js';
import { applyMergePatch } from './json-merge-patch.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

const deployment = BUILTIN_SCHEMA.type(builtinTypeName('apps/v1', 'Deployment')!);
const pod = BUILTIN_SCHEMA.type(builtinTypeName('v1', 'Pod')!);

describe('JSON merge patch (RFC 7386)', () => {
  it('merges maps, deletes with null, replaces lists', () => {
    expect(applyMergePatch({ a: 1, b: { c: 2, d: 3 }, l: [1, 2] }, { b: { c: null, e: 4 }, l: [3] })).toEqual({ a: 1, b: { d: 3, e: 4 }, l: [3] });
  });

  it('treats __proto__ as a plain key', () => {
    const out = applyMergePatch({}, JSON.parse('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('strategic merge patch', () => {
  const live = {
    metadata: { name: 'web', labels: { app: 'web', tier: 'front' }, finalizers: ['a'] },
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:1', env: [{ name: 'A', value: '1' }] },
            { name: 'sidecar', image: 'side:1', args: ['x', 'y'] },
          ],
        },
      },
    },
  };

  it('merges containers by name (the patch merge key) and keeps the others', () => {
    const out = applyStrategicMergePatch(live, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:2' }] } } } }, deployment) as any;
    expect(out.spec.template.spec.containers).toEqual([
      { name: 'nginx', image: 'nginx:2', env: [{ name: 'A', value: '1' }] },
      { name: 'sidecar', image: 'side:1', args: ['x', 'y'] },
    ]);
  });

  it('replaces atomic lists and merges sets', () => {
    const out = applyStrategicMergePatch(
      live,
      { metadata: { finalizers: ['b'] }, spec: { template: { spec: { containers: [{ name: 'sidecar', args: ['z'] }] } } } },
      deployment,
    ) as any;
    expect(out.metadata.finalizers).toEqual(['a', 'b']);
    expect(out.spec.template.spec.containers[1].args).toEqual(['z']);
  });

  it('honours $patch: delete on list items and null on map keys', () => {
    const out = applyStrategicMergePatch(
      live,
      { metadata: { labels: { tier: null } }, spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } },
      deployment,
    ) as any;
    expect(out.metadata.labels).toEqual({ app: 'web' });
    expect(out.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['nginx']);
  });

  it('honours $setElementOrder and $deleteFromPrimitiveList as kubectl apply sends them', () => {
    const out = applyStrategicMergePatch(
      live,
      {
        metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] },
        spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'nginx' }], containers: [{ name: 'nginx', image: 'nginx:3' }] } } },
      },
      deployment,
    ) as any;
    expect(out.metadata.finalizers).toEqual([]);
    expect(out.spec.template.spec.containers.map((c: any) => `${c.name}:${c.image}`)).toEqual(['sidecar:side:1', 'nginx:nginx:3']);
  });

  it('honours $retainKeys and $patch: replace on maps', () => {
    const withStrategy = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } };
    const out = applyStrategicMergePatch(withStrategy, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, deployment) as any;
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
    const replaced = applyStrategicMergePatch(live, { metadata: { labels: { $patch: 'replace', only: 'this' } } }, pod) as any;
    expect(replaced.metadata.labels).toEqual({ only: 'this' });
  });

  it('replaces lists when the type has no schema (custom resources)', () => {
    expect(applyStrategicMergePatch({ l: [{ name: 'a' }] }, { l: [{ name: 'b' }] }, DEDUCED_TYPE)).toEqual({ l: [{ name: 'b' }] });
  });

  it('rejects list items without the merge key', () => {
    expect(() => applyStrategicMergePatch(live, { spec: { template: { spec: { containers: [{ image: 'x' }] } } } }, deployment)).toThrow('does not contain declared merge key: name');
  });
});

describe('JSON patch (RFC 6902) through applyPatch', () => {
  const live = { metadata: { name: 'a', resourceVersion: '5' }, data: { k: 'v' } };

  it('applies add, replace, remove, test and leaves the input alone', () => {
    const out = applyPatch(DEDUCED_TYPE, live, 'json', [
      { op: 'test', path: '/metadata/resourceVersion', value: '5' },
      { op: 'add', path: '/data/x', value: '1' },
      { op: 'replace', path: '/data/k', value: 'w' },
      { op: 'remove', path: '/metadata/resourceVersion' },
    ]);
    expect(out).toEqual({ metadata: { name: 'a' }, data: { k: 'w', x: '1' } });
    expect(live.data).toEqual({ k: 'v' });
  });

  it('is all or nothing: a failing operation rejects the patch with a 422', () => {
    const run = () => applyPatch(DEDUCED_TYPE, live, 'json', [{ op: 'add', path: '/data/x', value: '1' }, { op: 'test', path: '/metadata/resourceVersion', value: '6' }]);
    expect(run).toThrow(ApiError);
    try {
      run();
    } catch (e) {
      expect((e as ApiError).code).toBe(422);
    }
    expect(() => applyPatch(DEDUCED_TYPE, live, 'json', { op: 'add' })).toThrow('cannot unmarshal');
  });

  it('never writes through __proto__', () => {
    try {
      applyPatch(DEDUCED_TYPE, live, 'json', [{ op: 'add', path: '/__proto__/polluted', value: true }]);
    } catch {
      // rejected or applied as a plain key: either way nothing leaks
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
