import { FieldManager, convertHpa, encodeBuiltinObject, builtinConverterFor, type KubeObject } from '../../ssa-engine/src/index.js';
import { bundledChoice } from './schema-resolver.port.js';
import { simulateApply } from './simulate-apply.use-case.js';

// simulate/apply with managers of a HorizontalPodAutoscaler recorded at autoscaling/v1 (converted, as
// the apiserver does) and at autoscaling/v2beta2 (not served any more: left out, and said so).

const KIND = 'HorizontalPodAutoscaler';
const writer = (apiVersion: string) =>
  new FieldManager({
    type: bundledChoice(`io.k8s.api.autoscaling.${apiVersion.split('/')[1]}.${KIND}`).type,
    apiVersion,
    kind: KIND,
    now: () => '2026-11-25T10:00:00Z',
    normalize: (o) => encodeBuiltinObject(o, { apiVersion, kind: KIND }) as KubeObject,
    emptyObject: () => encodeBuiltinObject({}, { apiVersion, kind: KIND }) as KubeObject,
    conversion: builtinConverterFor(apiVersion, KIND)!,
  });
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const v2Config = (cpu: number) => ({
  apiVersion: 'autoscaling/v2',
  kind: KIND,
  metadata: { name: 'web', namespace: 'shop' },
  spec: { scaleTargetRef: ref, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } }] },
});
/** The stored object read at another version: the body converted, managedFields as stored. */
const readAt = (o: KubeObject, from: string, to: string): KubeObject => {
  const c = convertHpa(o, from, to) as KubeObject;
  return { ...c, metadata: { ...(c['metadata'] as object), managedFields: (o['metadata'] as KubeObject)['managedFields'] } } as KubeObject;
};

describe('simulateApply with managers at other API versions', () => {
  const created = writer('autoscaling/v2').apply(undefined, v2Config(60), 'gitops', false);
  const shared = writer('autoscaling/v1').apply(
    readAt(created, 'autoscaling/v2', 'autoscaling/v1'),
    { apiVersion: 'autoscaling/v1', kind: KIND, metadata: { name: 'web', namespace: 'shop' }, spec: { scaleTargetRef: ref, maxReplicas: 10, targetCPUUtilizationPercentage: 60 } },
    'legacy-ci',
    false,
  );
  const live = readAt(shared, 'autoscaling/v1', 'autoscaling/v2');
  const meta = live['metadata'] as { managedFields: Record<string, unknown>[] };
  const withOld = {
    ...live,
    metadata: { ...meta, managedFields: [...meta.managedFields, { manager: 'old-tool', operation: 'Update', apiVersion: 'autoscaling/v2beta2', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:minReplicas': {} } } }] },
  };

  it('finds the conflict with the v1 owner through the conversion, and notes each manager at another version', () => {
    const r = simulateApply({ live: withOld, config: v2Config(75), manager: 'gitops' });
    expect(r.conflicts.map((c) => [c.manager, c.apiVersion, c.path])).toEqual([['legacy-ci', null, '.spec.targetCPUUtilizationPercentage']]); // an applier: kubectl names no version
    expect(r.schema).toMatchObject({ source: 'bundled', typeName: 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler' });
    expect(r.notes).toEqual([
      { code: 'entry-at-other-version', message: 'legacy-ci is recorded at autoscaling/v1: its fields were compared after converting the object to autoscaling/v1, as the apiserver does' },
      {
        code: 'entry-at-other-version',
        message: 'old-tool is recorded at autoscaling/v2beta2, which cannot be converted to autoscaling/v2 here: the simulation leaves it out, as the apiserver does on the next write when autoscaling/v2beta2 is no longer served',
      },
    ]);
  });

  it('with force the v1 manager loses the field; the unserved one is dropped as the apiserver would', () => {
    const r = simulateApply({ live: withOld, config: v2Config(75), manager: 'gitops', force: true });
    const managers = r.result!.managedFields.map((e) => `${e.manager} ${e.apiVersion}`);
    expect(managers).not.toContain('old-tool autoscaling/v2beta2');
    expect(managers).toContain('gitops autoscaling/v2');
    // legacy-ci keeps the fields it shares with gitops (same values), not the one it lost, still recorded at its own version.
    const legacy = r.result!.managedFields.find((e) => e.manager === 'legacy-ci');
    expect(legacy?.apiVersion).toBe('autoscaling/v1');
    expect(JSON.stringify(legacy?.fieldsV1)).not.toContain('f:targetCPUUtilizationPercentage');
    expect(legacy?.fieldsV1).toMatchObject({ 'f:spec': { 'f:maxReplicas': {} } });
  });
});
