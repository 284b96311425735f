import { formatFindings } from './findings.format.js';
import { NO_PAINT } from './paint.js';
import type { Finding } from './service-api.types.js';

const finding = (type: Finding['type'], name: string, path: string): Finding => ({
  type,
  objectId: '5',
  cluster: 'prod',
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  namespace: 'default',
  name,
  path,
  fieldsV1Path: 'f:spec.f:replicas',
  managers: [{ manager: 'horizontal-pod-autoscaler', operation: 'Update', subresource: 'scale', apiVersion: 'apps/v1' }],
  owners: [],
  since: '2026-11-21T10:00:00Z',
  sinceSeq: '1',
  message: 'contested',
});

describe('formatFindings', () => {
  it('groups findings by object', () => {
    expect(formatFindings([finding('replicas-contested', 'web', '.spec.replicas'), finding('recently-forced', 'web', '.spec.x')], NO_PAINT)).toBe(
      [
        'deployment.apps/web -n default',
        '  replicas-contested  .spec.replicas  horizontal-pod-autoscaler (Update, /scale)',
        '  recently-forced  .spec.x  horizontal-pod-autoscaler (Update, /scale)',
        '',
      ].join('\n'),
    );
  });
  it('says when there are none', () => {
    expect(formatFindings([], NO_PAINT)).toBe('no findings\n');
  });
});
