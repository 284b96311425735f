import { otherVersionNotes, entriesAtOtherVersions } from './other-versions.js';
import { readSnapshot } from './snapshot.js';
import { BUILTIN_SCHEMA } from '../schema/builtin-schema.js';

const type = BUILTIN_SCHEMA.type('io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler');
const entry = (manager: string, apiVersion: string, fieldsV1: object) => ({ manager, operation: 'Update', apiVersion, time: '2026-07-01T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1 });
const hpa = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: {
    name: 'web',
    managedFields: [
      entry('gitops', 'autoscaling/v2', { 'f:spec': { 'f:maxReplicas': {} } }),
      entry('legacy-ci', 'autoscaling/v1', { 'f:spec': { 'f:targetCPUUtilizationPercentage': {} } }),
      entry('old-operator', 'autoscaling/v2beta2', { 'f:spec': { 'f:minReplicas': {} } }),
    ],
  },
  spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 10 },
};

describe('entries at another API version than the observed object (07 §1.2)', () => {
  const s = readSnapshot({ object: hpa, type });

  it('keeps them and tells convertible from unconvertible versions', () => {
    expect(entriesAtOtherVersions(s, 'autoscaling/v2', 'HorizontalPodAutoscaler').map((e) => [e.apiVersion, e.reading])).toEqual([
      ['autoscaling/v1', 'convertible'],
      ['autoscaling/v2beta2', 'unconvertible'],
    ]);
  });

  it('says so in one note per entry, with the paths as recorded', () => {
    const notes = otherVersionNotes(s, 'autoscaling/v2', 'HorizontalPodAutoscaler');
    expect(notes.map((n) => [n.code, n.managers[0]!.manager, n.paths])).toEqual([
      ['entry-at-other-version', 'legacy-ci', ['.spec.targetCPUUtilizationPercentage']],
      ['entry-at-other-version', 'old-operator', ['.spec.minReplicas']],
    ]);
    expect(notes[1]!.message).toContain('cannot be converted');
  });
});
