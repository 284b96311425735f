/** Single-write benchmarks: an apply against a Deployment with 4 managers, a Pod status update, a no-op apply. */
import { FieldManager, type KubeObject } from '../libs/ssa-engine/src/apiserver/field-manager.js';
import { normalizerFor } from '../libs/ssa-engine/src/apiserver/normalize.js';
import { BUILTIN_SCHEMA, builtinTypeName } from '../libs/ssa-engine/src/schema/builtin-schema.js';
import { measure, type Stats } from './bench-support.js';

function manager(apiVersion: string, kind: string, subresource = ''): FieldManager {
  const n = normalizerFor({ apiVersion, kind }, true);
  return new FieldManager({
    type: BUILTIN_SCHEMA.type(builtinTypeName(apiVersion, kind)!),
    apiVersion,
    kind,
    subresource,
    now: () => '2026-11-21T10:00:00Z',
    normalize: n.normalize,
    emptyObject: n.emptyObject,
  });
}

function deployment(image: string, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web', tier: 'frontend' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image,
              ports: [{ containerPort: 8080, name: 'http' }],
              env: [
                { name: 'LOG_LEVEL', value: 'info' },
                { name: 'REGION', value: 'eu-west-1' },
              ],
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
            },
            { name: 'sidecar', image: 'envoy:1.29', args: ['--v=2'] },
          ],
        },
      },
    },
  };
}

export function writeScenarios(): Stats[] {
  const deploy = manager('apps/v1', 'Deployment');
  const deployStatus = manager('apps/v1', 'Deployment', 'status');
  let live = deploy.apply(undefined, deployment('nginx:1.27', 3), 'argocd', false);
  live = deploy.update(live, { ...live, metadata: { ...(live['metadata'] as object), annotations: { 'deployment.kubernetes.io/revision': '1' } } }, 'kube-controller-manager');
  live = deploy.apply(live, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', labels: { team: 'payments' } } }, 'kubectl', false);
  live = deployStatus.update(live, { ...live, status: { replicas: 3, readyReplicas: 3, observedGeneration: 1 } }, 'deployment-controller');
  const managers = (live['metadata'] as { managedFields: unknown[] }).managedFields.length;
  if (managers !== 4) throw new Error(`expected 4 managers, got ${managers}`);
  const config = deployment('nginx:1.28', 3);

  const pods = manager('v1', 'Pod');
  const podStatus = manager('v1', 'Pod', 'status');
  const pod = pods.apply(
    undefined,
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    'kubectl',
    false,
  );
  let ready = 0;
  const podWithStatus = () => ({
    ...pod,
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: ready++ % 2 ? 'True' : 'False' },
        { type: 'Initialized', status: 'True' },
      ],
      containerStatuses: [{ name: 'c', ready: true, restartCount: 0, image: 'busybox', imageID: 'sha', started: true }],
    },
  });
  return [
    measure('apply Deployment (4 managers on live)', 2000, () => deploy.apply(live, config, 'argocd', false)),
    measure('Pod status update', 2000, () => podStatus.update(pod, podWithStatus(), 'kubelet')),
    measure('no-op apply (Deployment, same config)', 2000, () => deploy.apply(live, deployment('nginx:1.27', 3), 'argocd', false)),
  ];
}
