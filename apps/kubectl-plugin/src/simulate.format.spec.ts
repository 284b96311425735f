import { NO_PAINT } from './paint.js';
import type { SimulateAnswer } from './service-api.types.js';
import { kubectlConflictStderr } from '../../../libs/audit/src/kubectl-apply-output.js';
import { formatPrediction, kubectlApplyOutput } from './simulate.format.js';
const BUNDLED = { source: 'bundled', typeName: 'io.k8s.api.core.v1.Pod', digest: '0000000000000000' } as const;

const ok = (pruned: string[] = [], kept: SimulateAnswer['kept'] = []): SimulateAnswer => ({ objectId: '1', conflicts: [], message: null, kubectlStderr: null, pruned, kept, result: null, schema: BUNDLED, notes: [] });
const message = 'Apply failed with 1 conflict: conflict with "kubectl-set" using v1: .spec.x';
const conflict: SimulateAnswer = {
  schema: BUNDLED,
  notes: [],
  objectId: '1',
  conflicts: [{ manager: 'kubectl-set', operation: 'Update', subresource: null, apiVersion: 'v1', path: '.spec.x' }],
  message,
  kubectlStderr: kubectlConflictStderr([message]),
  pruned: [],
  kept: [],
  result: null,
};

describe('kubectlApplyOutput', () => {
  it('prints serverside-applied per object on stdout', () => {
    expect(kubectlApplyOutput([{ objectName: 'deployment.apps/web', answer: ok() }, { objectName: 'configmap/c', answer: ok() }])).toEqual({
      stdout: 'deployment.apps/web serverside-applied\nconfigmap/c serverside-applied\n',
      stderr: '',
      code: 0,
    });
  });

  it('goes on past a conflict as kubectl does: the other objects on stdout, the conflict on stderr, exit 1', () => {
    const out = kubectlApplyOutput([{ objectName: 'configmap/c', answer: ok() }, { objectName: 'pod/nginx', answer: conflict }, { objectName: 'configmap/d', answer: ok() }]);
    expect(out).toEqual({ stdout: 'configmap/c serverside-applied\nconfigmap/d serverside-applied\n', stderr: kubectlConflictStderr([conflict.message!]), code: 1 });
    expect(out.stderr.startsWith(`error: ${conflict.message}\n`)).toBe(true);
  });
});

describe('formatPrediction', () => {
  it('lists pruned and kept fields as comments', () => {
    const kept: SimulateAnswer['kept'] = [{ path: '.metadata.labels.a', owners: [{ manager: 'flux', operation: 'Apply', subresource: '', apiVersion: 'v1' }] }];
    expect(formatPrediction([{ objectName: 'configmap/c', answer: ok(['.data.x'], kept) }], NO_PAINT)).toBe(
      '# configmap/c\n#   pruned .data.x\n#   kept   .metadata.labels.a  (still owned by flux (Apply))\n',
    );
    expect(formatPrediction([{ objectName: 'configmap/c', answer: ok() }], NO_PAINT)).toBe('');
  });

  it('goes on past a conflicting object, as kubectl applies the objects after it', () => {
    const applies = [
      { objectName: 'configmap/a', answer: conflict },
      { objectName: 'configmap/b', answer: ok(['.data.y']) },
    ];
    expect(formatPrediction(applies, NO_PAINT)).toBe('# configmap/b\n#   pruned .data.y\n');
  });
});
