import { readFileSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SsaEngineError } from '../errors.js';
import { builtinGoTypeName } from './builtin-json-encoding.js';
import { encodeBuiltinObject } from './encode-builtin-object.js';

// The conformance corpus lives beside the repository: <repo>/../shared/conformance.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const casesDir = resolve(repoRoot, '../shared/conformance/cases');

interface Step {
  op: 'apply' | 'update';
  subresource?: string;
  patchType?: string;
  object: Record<string, unknown>;
  expect: { object?: Record<string, unknown> };
}
interface Case {
  name: string;
  kind: string;
  schema: 'builtin' | 'deduced';
  steps: Step[];
}

const cases: Case[] = readdirSync(casesDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(resolve(casesDir, f), 'utf8')) as Case)
  .filter((c) => c.schema === 'builtin');

function gvk(c: Case): { apiVersion: string; kind: string } {
  const [apiVersion = '', kind = ''] = c.kind.split(' ');
  return { apiVersion, kind };
}

function withoutManagedFields(o: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(o);
  const meta = copy['metadata'] as Record<string, unknown> | undefined;
  if (meta) delete meta['managedFields'];
  return copy;
}

describe('encodeBuiltinObject on the conformance corpus', () => {
  it('finds the builtin cases', () => {
    expect(cases.length).toBeGreaterThan(400);
  });

  it('knows the Go type of every kind in the corpus and of Scale', () => {
    const kinds = new Set(cases.map((c) => c.kind));
    const types = [...kinds].sort().map((k) => {
      const { apiVersion, kind } = gvk({ kind: k } as Case);
      return `${k} → ${builtinGoTypeName(apiVersion, kind)}`;
    });
    expect(types).toEqual([
      'apps/v1 Deployment → io.k8s.api.apps.v1.Deployment',
      'v1 ConfigMap → io.k8s.api.core.v1.ConfigMap',
      'v1 Pod → io.k8s.api.core.v1.Pod',
      'v1 Service → io.k8s.api.core.v1.Service',
    ]);
    expect(builtinGoTypeName('autoscaling/v1', 'Scale')).toBe('io.k8s.api.autoscaling.v1.Scale');
  });

  // (a) The expected objects are already apiserver-encoded: encoding must not change them.
  it.each(cases.map((c) => [c.name, c] as const))('%s: expected objects are a fixed point', (_name, c) => {
    for (const step of c.steps) {
      if (!step.expect.object) continue;
      expect(JSON.stringify(encodeBuiltinObject(step.expect.object, gvk(c)))).toBe(JSON.stringify(step.expect.object));
    }
  });

  // (b) An update's object is the full new object: encoded, it is the stored object (managedFields
  // aside). Holds for every update step of the corpus, so nothing there needs defaulting.
  const updates = cases.flatMap((c) =>
    c.steps
      .map((s, i) => ({ c, s, i }))
      .filter(({ s }) => s.op === 'update' && s.subresource !== 'scale' && s.expect.object),
  );
  it.each(updates.map(({ c, s, i }) => [`${c.name}#${i}`, c, s] as const))(
    '%s: an update stores its encoded object',
    (_name, c, s) => {
      const encoded = withoutManagedFields(encodeBuiltinObject(s.object, gvk(c)));
      expect(JSON.stringify(encoded)).toBe(JSON.stringify(withoutManagedFields(s.expect.object!)));
    },
  );

  // The first successful apply creates the object from the configuration alone.
  const creations = cases.flatMap((c) => {
    const i = c.steps.findIndex((s) => s.expect.object);
    const s = c.steps[i];
    return s && s.op === 'apply' && s.subresource === undefined ? [{ c, s, i }] : [];
  });
  it.each(creations.map(({ c, s, i }) => [`${c.name}#${i}`, c, s] as const))(
    '%s: a creating apply stores its encoded configuration',
    (_name, c, s) => {
      const encoded = withoutManagedFields(encodeBuiltinObject(s.object, gvk(c)));
      expect(JSON.stringify(encoded)).toBe(JSON.stringify(withoutManagedFields(s.expect.object!)));
    },
  );

  it('a scale update object encodes as autoscaling/v1 Scale (kind first)', () => {
    const scaleSteps = cases.flatMap((c) => c.steps.filter((s) => s.subresource === 'scale'));
    expect(scaleSteps.length).toBeGreaterThan(0);
    for (const s of scaleSteps) {
      const encoded = encodeBuiltinObject(s.object);
      expect(Object.keys(encoded).slice(0, 2)).toEqual(['kind', 'apiVersion']);
      expect(encoded).toEqual(s.object);
    }
  });
});

describe('encodeBuiltinObject: targets', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { b: '2', a: '1' } };

  it('uses the object apiVersion/kind by default, or a Go type name, or a gvk', () => {
    const expected = '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x"},"data":{"a":"1","b":"2"}}';
    expect(JSON.stringify(encodeBuiltinObject(cm))).toBe(expected);
    expect(JSON.stringify(encodeBuiltinObject(cm, 'io.k8s.api.core.v1.ConfigMap'))).toBe(expected);
    expect(JSON.stringify(encodeBuiltinObject(cm, { apiVersion: 'v1', kind: 'ConfigMap' }))).toBe(expected);
  });

  it('does not modify its input', () => {
    const input = structuredClone(cm);
    encodeBuiltinObject(input);
    expect(input).toEqual(cm);
  });

  it.each([
    [{ apiVersion: 'example.com/v1', kind: 'Widget' }],
    [{ apiVersion: 'v1', kind: 'Container' }],
    [{ metadata: {} }],
  ])('rejects %j with unknown-kind', (obj) => {
    expect(() => encodeBuiltinObject(obj)).toThrow(expect.objectContaining({ code: 'unknown-kind' }) as SsaEngineError);
  });

  it('rejects a value of the wrong JSON kind with invalid-object and its path', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', spec: { containers: [{ name: 'a', ports: [{ containerPort: '80' }] }] } };
    expect(() => encodeBuiltinObject(pod)).toThrow(
      expect.objectContaining({ code: 'invalid-object', path: '.spec.containers[0].ports[0].containerPort' }) as SsaEngineError,
    );
  });
});

describe('encodeBuiltinObject: what the apiserver adds and drops', () => {
  it('a minimal Deployment: kind first, empty structs written, nil selector null, zero bool dropped', () => {
    const out = encodeBuiltinObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: {} },
      spec: { paused: false, minReadySeconds: 0, replicas: 0, template: { spec: { containers: [{ name: 'a', args: [] }] } } },
    });
    expect(JSON.stringify(out)).toBe(
      '{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web"},' +
        '"spec":{"replicas":0,"selector":null,"template":{"metadata":{},"spec":{"containers":[{"name":"a","resources":{}}]}},"strategy":{}},' +
        '"status":{}}',
    );
  });

  it('creationTimestamp: omitted when absent or zero (omitzero), normalised to UTC otherwise', () => {
    const cm = (creationTimestamp?: string): Record<string, unknown> =>
      encodeBuiltinObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', creationTimestamp } });
    expect(cm()['metadata']).toEqual({ name: 'x' });
    expect(cm('0001-01-01T00:00:00Z')['metadata']).toEqual({ name: 'x' });
    expect(cm('2024-01-01T02:00:00+02:00')['metadata']).toEqual({ name: 'x', creationTimestamp: '2024-01-01T00:00:00Z' });
  });

  it('Service ports: targetPort 0 when absent (IntOrString is a struct), no protocol added (no defaulting)', () => {
    const out = encodeBuiltinObject({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } });
    expect(JSON.stringify(out['spec'])).toBe('{"ports":[{"port":80,"targetPort":0}]}');
    expect(JSON.stringify(out['status'])).toBe('{"loadBalancer":{}}');
  });

  it('resource quantities are canonicalised; map keys sorted', () => {
    const out = encodeBuiltinObject({
      apiVersion: 'v1',
      kind: 'Pod',
      spec: { containers: [{ name: 'a', resources: { limits: { memory: '1024Mi', cpu: 0.5 }, requests: { cpu: '1000m' } } }] },
    });
    expect(JSON.stringify((out['spec'] as { containers: unknown[] }).containers[0])).toBe(
      '{"name":"a","resources":{"limits":{"cpu":"500m","memory":"1Gi"},"requests":{"cpu":"1"}}}',
    );
  });

  it('managedFields: fieldsV1 is opaque JSON kept as given; entries in Go field order', () => {
    const fieldsV1 = { 'f:metadata': { 'f:labels': { 'f:b': {}, 'f:a': {} } } };
    const out = encodeBuiltinObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'x',
        managedFields: [{ fieldsV1, fieldsType: 'FieldsV1', time: '2024-01-01T00:00:01Z', apiVersion: 'v1', operation: 'Apply', manager: 'm' }],
      },
    });
    expect(JSON.stringify((out['metadata'] as { managedFields: unknown[] }).managedFields[0])).toBe(
      `{"manager":"m","operation":"Apply","apiVersion":"v1","time":"2024-01-01T00:00:01Z","fieldsType":"FieldsV1","fieldsV1":${JSON.stringify(fieldsV1)}}`,
    );
  });

  it('ConfigMap data: null values become "" (Go string zero), a null map is dropped', () => {
    expect(encodeBuiltinObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { z: null, a: 'x' } })['data']).toEqual({ a: 'x', z: '' });
    expect(encodeBuiltinObject({ apiVersion: 'v1', kind: 'ConfigMap', data: null })).not.toHaveProperty('data');
  });
});
