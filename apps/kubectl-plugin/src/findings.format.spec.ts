import { formatFindings } from './findings.format.js';
import { NO_PAINT } from './paint.js';

const finding = (type: string, name: string, path: string) => ({
  type,
  objectId: '5',
  cluster: 'prod',
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  namespace: 'default',
  name,
  path,
  managers: [{ manager: 'horizontal-pod-autoscaler', operation: 'Update', subresource: 'scale', apiVersion: 'apps/v1' }],
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
