import { builtinConverterFor, canConvert } from './converter.js';
import { convertHpa, HPA_ROUND_TRIP_ANNOTATIONS as A } from './hpa-v1-v2.js';

const v2: Record<string, any> = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'shop', annotations: { team: 'payments' } },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 2,
    maxReplicas: 10,
    metrics: [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      { type: 'Pods', pods: { metric: { name: 'requests_per_second' }, target: { type: 'AverageValue', averageValue: '1k' } } },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] } },
  },
  status: {
    currentReplicas: 3,
    desiredReplicas: 3,
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '120m', averageUtilization: 40 } } }],
    conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-07-01T10:00:00Z', reason: 'ReadyForNewScale' }],
  },
};

describe('HorizontalPodAutoscaler autoscaling/v2 ↔ autoscaling/v1 (pkg/apis/autoscaling/v1/conversion.go)', () => {
  const v1 = convertHpa(v2, 'autoscaling/v2', 'autoscaling/v1') as Record<string, any>;

  it('maps the CPU utilization metric to targetCPUUtilizationPercentage and the current CPU to the status', () => {
    expect(v1['apiVersion']).toBe('autoscaling/v1');
    expect(v1['spec']).toEqual({ scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 60 });
    expect(v1['status']).toEqual({ currentReplicas: 3, desiredReplicas: 3, currentCPUUtilizationPercentage: 40 });
  });

  it('keeps what v1 has no field for in the round-trip annotations, in the v1 alpha shapes', () => {
    const ann = v1['metadata']['annotations'];
    expect(ann['team']).toBe('payments');
    expect(ann[A.metrics]).toBe('[{"type":"Pods","pods":{"metricName":"requests_per_second","targetAverageValue":"1k"}}]');
    expect(ann[A.currentMetrics]).toBe('[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"120m"}}]');
    expect(ann[A.behavior]).toBe(
      '{"ScaleUp":null,"ScaleDown":{"StabilizationWindowSeconds":300,"SelectPolicy":null,"Policies":[{"Type":"Percent","Value":10,"PeriodSeconds":60}],"Tolerance":null}}',
    );
    expect(JSON.parse(ann[A.conditions])).toEqual([{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-07-01T10:00:00Z', reason: 'ReadyForNewScale' }]);
  });

  it('round-trips v2 → v1 → v2 and drops the annotations on the way back', () => {
    const back = convertHpa(v1, 'autoscaling/v1', 'autoscaling/v2') as Record<string, any>;
    expect(back['metadata']['annotations']).toEqual({ team: 'payments' });
    expect(back['spec']['metrics']).toEqual([
      { type: 'Pods', pods: { metric: { name: 'requests_per_second' }, target: { type: 'AverageValue', averageValue: '1k' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
    ]);
    expect(back['spec']['behavior']).toEqual(v2['spec']['behavior']);
    expect(back['status']['currentMetrics']).toEqual([{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '120m', averageUtilization: 40 } } }]);
    expect(back['status']['conditions']).toEqual(v2['status']['conditions']);
  });

  it('gives a v1 object without a CPU target the implicit 80 % when read as v2', () => {
    const bare = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'a' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'a' }, maxReplicas: 3 } };
    const out = convertHpa(bare, 'autoscaling/v1', 'autoscaling/v2') as Record<string, any>;
    expect(out['spec']['metrics']).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  });

  it('ignores a round-trip annotation that is not valid JSON, as the apiserver does', () => {
    const odd = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'a', annotations: { [A.metrics]: '{not json' } }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'a' }, maxReplicas: 3, targetCPUUtilizationPercentage: 50 } };
    const out = convertHpa(odd, 'autoscaling/v1', 'autoscaling/v2') as Record<string, any>;
    expect(out['spec']['metrics']).toHaveLength(1);
    expect(out['metadata']['annotations']).toBeUndefined();
  });

  it('registers HPA v1 and v2 only', () => {
    expect(canConvert('HorizontalPodAutoscaler', 'autoscaling/v1', 'autoscaling/v2')).toBe(true);
    expect(canConvert('HorizontalPodAutoscaler', 'autoscaling/v2', 'autoscaling/v2beta2')).toBe(false);
    expect(builtinConverterFor('apps/v1', 'Deployment')).toBeUndefined();
    const c = builtinConverterFor('autoscaling/v2', 'HorizontalPodAutoscaler')!;
    expect(c.typeAt('autoscaling/v1')?.name).toBe('io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler');
    expect(c.typeAt('autoscaling/v2beta2')).toBeUndefined();
    expect(c.convert(v2, 'autoscaling/v2', 'autoscaling/v2beta2')).toBeUndefined();
  });
});
