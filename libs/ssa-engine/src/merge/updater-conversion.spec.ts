import { FieldManager, type KubeObject } from '../apiserver/field-manager.js';
import { builtinConverterFor, type VersionConverter } from '../conversion/converter.js';
import { convertHpa } from '../conversion/hpa-v1-v2.js';
import { encodeBuiltinObject } from '../encoding/encode-builtin-object.js';
import { FieldSet } from '../fieldpath/field-set.js';
import { fieldName } from '../fieldpath/path-element.js';
import { decodeManagedFields } from '../managed-fields/managed-fields.js';
import { ConflictError } from './conflict.js';
import { BUILTIN_SCHEMA } from '../schema/builtin-schema.js';

const KIND = 'HorizontalPodAutoscaler';
const typeOf = (v: string) => BUILTIN_SCHEMA.type(`io.k8s.api.autoscaling.${v.split('/')[1]}.${KIND}`);
const STATUS = FieldSet.fromPaths([[fieldName('status')]]);

function manager(apiVersion: string, conversion: VersionConverter | undefined, isServedVersion?: (v: string) => boolean): FieldManager {
  return new FieldManager({
    type: typeOf(apiVersion),
    apiVersion,
    kind: KIND,
    resetFields: STATUS,
    now: () => '2026-07-01T10:00:00Z',
    normalize: (o) => encodeBuiltinObject(o, { apiVersion, kind: KIND }) as KubeObject,
    emptyObject: () => encodeBuiltinObject({}, { apiVersion, kind: KIND }) as KubeObject,
    ...(conversion ? { conversion } : {}),
    ...(isServedVersion ? { isServedVersion } : {}),
  });
}

const conv = builtinConverterFor('autoscaling/v2', KIND);
const v2 = manager('autoscaling/v2', conv);
const v1 = manager('autoscaling/v1', conv);

/** The stored object read at another version: the body converted, managedFields as stored. */
function readAt(obj: KubeObject, from: string, to: string): KubeObject {
  const c = convertHpa(obj, from, to) as KubeObject;
  return { ...c, metadata: { ...(c['metadata'] as object), managedFields: (obj['metadata'] as KubeObject)['managedFields'] } } as KubeObject;
}

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const cfgV2 = (cpu: number, extra: object[] = []): KubeObject => ({
  apiVersion: 'autoscaling/v2',
  kind: KIND,
  metadata: { name: 'web', namespace: 'shop' },
  spec: { scaleTargetRef: ref, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } }, ...(extra as KubeObject[])] },
});
const cfgV1 = (cpu: number): KubeObject => ({
  apiVersion: 'autoscaling/v1',
  kind: KIND,
  metadata: { name: 'web', namespace: 'shop' },
  spec: { scaleTargetRef: ref, maxReplicas: 10, targetCPUUtilizationPercentage: cpu },
});

function entries(obj: KubeObject) {
  return [...decodeManagedFields((obj['metadata'] as KubeObject)['managedFields']).values()].map((e) => ({
    manager: e.manager,
    apiVersion: e.apiVersion,
    paths: e.set.toHumanPaths(),
  }));
}

describe('managers recorded at another API version, compared in their own version (04 §1, §3)', () => {
  const created = v2.apply(undefined, cfgV2(60), 'gitops', false);

  it('a v1 applier of the same CPU target co-owns it with the v2 applier (no conflict)', () => {
    const after = v1.apply(readAt(created, 'autoscaling/v2', 'autoscaling/v1'), cfgV1(60), 'legacy-ci', false);
    const es = entries(after);
    expect(es.find((e) => e.manager === 'legacy-ci')).toMatchObject({ apiVersion: 'autoscaling/v1' });
    expect(es.find((e) => e.manager === 'legacy-ci')!.paths).toContain('.spec.targetCPUUtilizationPercentage');
    expect(es.find((e) => e.manager === 'gitops')).toMatchObject({ apiVersion: 'autoscaling/v2' });
  });

  it('a v2 apply changing the CPU metric conflicts with the v1 owner of targetCPUUtilizationPercentage', () => {
    const shared = v1.apply(readAt(created, 'autoscaling/v2', 'autoscaling/v1'), cfgV1(60), 'legacy-ci', false);
    const live = readAt(shared, 'autoscaling/v1', 'autoscaling/v2');
    let err: unknown;
    try {
      v2.apply(live, cfgV2(75), 'gitops', false);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).conflicts.map((c) => [c.manager, c.field])).toEqual([['legacy-ci', '.spec.targetCPUUtilizationPercentage']]);
    // Forced: the v1 manager loses the field, seen through the conversion.
    const forced = v2.apply(live, cfgV2(75), 'gitops', true);
    const legacy = entries(forced).find((e) => e.manager === 'legacy-ci');
    expect(legacy?.paths ?? []).not.toContain('.spec.targetCPUUtilizationPercentage');
  });

  it('a v1 owner of the metrics annotation keeps it through an unrelated v2 write and loses it when v2 changes those metrics', () => {
    const withPods = v2.apply(created, cfgV2(60, [{ type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '1k' } } }]), 'gitops', false);
    // A v1 Update manager that wrote the annotation form of the metrics.
    const v1View = readAt(withPods, 'autoscaling/v2', 'autoscaling/v1');
    const ann = (v1View['metadata'] as KubeObject)['annotations'] as Record<string, string>;
    const edited = { ...v1View, metadata: { ...(v1View['metadata'] as object), annotations: { ...ann, 'autoscaling.alpha.kubernetes.io/metrics': ann['autoscaling.alpha.kubernetes.io/metrics']!.replace('1k', '2k') } } } as KubeObject;
    const afterEdit = v1.update(v1View, edited, 'kubectl-edit');
    const editor = entries(afterEdit).find((e) => e.manager === 'kubectl-edit');
    expect(editor?.paths).toContain('.metadata.annotations.autoscaling.alpha.kubernetes.io/metrics');
    const back = readAt(afterEdit, 'autoscaling/v1', 'autoscaling/v2');
    const metrics = ((back['spec'] as KubeObject)['metrics'] as KubeObject[]).map((m) => m['type']);
    expect(metrics).toEqual(['Pods', 'Resource']);
    const spec = back['spec'] as KubeObject;
    const unrelated = v2.update(back, { ...back, spec: { ...spec, maxReplicas: 12 } } as KubeObject, 'hpa-tuner');
    expect(entries(unrelated).find((e) => e.manager === 'kubectl-edit')?.paths).toContain('.metadata.annotations.autoscaling.alpha.kubernetes.io/metrics');
    const cpuOnly = [(spec['metrics'] as KubeObject[])[1]!];
    const dropped = v2.update(unrelated, { ...unrelated, spec: { ...(unrelated['spec'] as object), metrics: cpuOnly } } as KubeObject, 'hpa-tuner');
    // In the v1 view the annotation was removed: nobody owns it any more.
    expect(entries(dropped).find((e) => e.manager === 'kubectl-edit')?.paths ?? []).not.toContain('.metadata.annotations.autoscaling.alpha.kubernetes.io/metrics');
  });

  it('still drops a manager at a version the apiserver does not know (autoscaling/v2beta2 after its removal)', () => {
    const mf = [
      ...((created['metadata'] as KubeObject)['managedFields'] as object[]),
      { manager: 'old-operator', operation: 'Update', apiVersion: 'autoscaling/v2beta2', time: '2021-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:maxReplicas': {} } } },
    ];
    const live = { ...created, metadata: { ...(created['metadata'] as object), managedFields: mf } } as KubeObject;
    const after = v2.apply(live, cfgV2(70), 'gitops', false);
    expect(entries(after).map((e) => e.manager)).toEqual(['gitops']);
  });

  it('without a converter keeps today\'s behaviour: another served version is opaque, never in conflict', () => {
    const shared = v1.apply(readAt(created, 'autoscaling/v2', 'autoscaling/v1'), cfgV1(60), 'legacy-ci', false);
    const opaque = manager('autoscaling/v2', undefined, (v) => v === 'autoscaling/v1' || v === 'autoscaling/v2');
    const after = opaque.apply(readAt(shared, 'autoscaling/v1', 'autoscaling/v2'), cfgV2(75), 'gitops', false);
    expect(entries(after).find((e) => e.manager === 'legacy-ci')?.paths).toContain('.spec.targetCPUUtilizationPercentage');
  });

  it('prunes at the version of the applier\'s previous entry: a v1 applier switching to v2 and dropping minReplicas', () => {
    const first = v1.apply(undefined, { ...cfgV1(60), spec: { ...(cfgV1(60)['spec'] as KubeObject), minReplicas: 3 } }, 'ci', false);
    expect((convertHpa(first, 'autoscaling/v1', 'autoscaling/v2') as KubeObject)['spec']).toMatchObject({ minReplicas: 3 });
    const after = v2.apply(readAt(first, 'autoscaling/v1', 'autoscaling/v2'), cfgV2(60), 'ci', false);
    expect((after['spec'] as KubeObject)['minReplicas']).toBeUndefined();
    expect(entries(after)).toEqual([{ manager: 'ci', apiVersion: 'autoscaling/v2', paths: expect.arrayContaining(['.spec.maxReplicas']) }]);
  });
});
