import type { ManagedFieldsEntry, Observation } from '../../common/src/index.js';

export interface DeploymentShape {
  readonly cluster?: string;
  readonly uid: string;
  readonly name?: string;
  readonly namespace?: string;
  readonly resourceVersion: string;
  readonly replicas?: number;
  readonly image?: string;
  readonly time?: string;
  readonly type?: Observation['type'];
  readonly observedAt?: string;
  readonly status?: Record<string, unknown>;
  /** kubectl's apply also owns `.spec.replicas`, which the HPA owns too: a finding (`apply-update-co-owned`). */
  readonly applierOwnsReplicas?: boolean;
}

/**
 * managedFields of a typical Deployment: kubectl apply, the HPA on scale, the controller on status
 * (~2 KiB). `applierOwnsReplicas`: kubectl's apply owns `.spec.replicas` too (co-owned with the HPA).
 */
export function deploymentManagedFields(time: string, applierOwnsReplicas = false): ManagedFieldsEntry[] {
  return [
    {
      manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time, fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { 'f:app': {}, 'f:team': {} }, 'f:annotations': { 'f:owner': {} } },
        'f:spec': {
          ...(applierOwnsReplicas ? { 'f:replicas': {} } : {}),
          'f:selector': {},
          'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {}, 'f:maxUnavailable': {} } },
          'f:template': {
            'f:metadata': { 'f:labels': { 'f:app': {}, 'f:team': {} } },
            'f:spec': {
              'f:containers': {
                'k:{"name":"app"}': {
                  '.': {}, 'f:name': {}, 'f:image': {}, 'f:imagePullPolicy': {},
                  'f:ports': { 'k:{"containerPort":8080,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} } },
                  'f:env': { 'k:{"name":"LOG_LEVEL"}': { '.': {}, 'f:name': {}, 'f:value': {} }, 'k:{"name":"MODE"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
                  'f:resources': { 'f:limits': { 'f:cpu': {}, 'f:memory': {} }, 'f:requests': { 'f:cpu': {}, 'f:memory': {} } },
                  'f:readinessProbe': { 'f:httpGet': { 'f:path': {}, 'f:port': {} }, 'f:periodSeconds': {} },
                },
              },
            },
          },
        },
      },
    },
    {
      manager: 'horizontal-pod-autoscaler', operation: 'Update', apiVersion: 'apps/v1', time, fieldsType: 'FieldsV1',
      subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    },
    {
      manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'apps/v1', time, fieldsType: 'FieldsV1', subresource: 'status',
      fieldsV1: {
        'f:metadata': { 'f:annotations': { '.': {}, 'f:deployment.kubernetes.io/revision': {} } },
        'f:status': {
          'f:availableReplicas': {}, 'f:observedGeneration': {}, 'f:readyReplicas': {}, 'f:replicas': {}, 'f:updatedReplicas': {},
          'f:conditions': {
            '.': {},
            'k:{"type":"Available"}': { '.': {}, 'f:lastTransitionTime': {}, 'f:lastUpdateTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} },
            'k:{"type":"Progressing"}': { '.': {}, 'f:lastTransitionTime': {}, 'f:lastUpdateTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} },
          },
        },
      },
    },
  ];
}

/** An observation of a realistic Deployment. */
export function deploymentObservation(s: DeploymentShape): Observation {
  const time = s.time ?? '2026-11-21T10:00:00Z';
  const name = s.name ?? `web-${s.uid.slice(0, 8)}`;
  return {
    cluster: s.cluster ?? 'test-cluster',
    resource: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' },
    type: s.type ?? 'MODIFIED',
    source: 'watch',
    observedAt: s.observedAt ?? new Date().toISOString(),
    object: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        uid: s.uid, name, namespace: s.namespace ?? 'default', resourceVersion: s.resourceVersion, generation: 3,
        labels: { app: name, team: 'platform' },
        annotations: { owner: 'platform', 'deployment.kubernetes.io/revision': '3' },
        managedFields: deploymentManagedFields(time, s.applierOwnsReplicas),
      },
      spec: {
        replicas: s.replicas ?? 3,
        selector: { matchLabels: { app: name } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        template: {
          metadata: { labels: { app: name, team: 'platform' } },
          spec: {
            containers: [{
              name: 'app', image: s.image ?? 'registry.example.com/web:1.0.0', imagePullPolicy: 'IfNotPresent',
              ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
              env: [{ name: 'LOG_LEVEL', value: 'info' }, { name: 'MODE', value: 'prod' }],
              resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
              readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
            }],
          },
        },
      },
      status: s.status ?? { replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3, observedGeneration: 3 },
    },
  };
}

/** A Secret applied with kubectl (client-side): its values sit in `data` and in the last-applied annotation. */
export function secretObservation(uid: string, resourceVersion: string, password: string): Observation {
  const b64 = Buffer.from(password).toString('base64');
  const manifest = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'default' }, stringData: { password }, type: 'Opaque' };
  return {
    cluster: 'test-cluster',
    resource: { group: '', version: 'v1', resource: 'secrets', kind: 'Secret' },
    type: 'ADDED',
    source: 'watch',
    observedAt: new Date().toISOString(),
    object: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        uid, name: 'db', namespace: 'default', resourceVersion,
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(manifest) },
        managedFields: [{
          manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', time: '2026-11-21T10:00:00Z', fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { '.': {}, 'f:password': {} }, 'f:metadata': { 'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} } }, 'f:type': {} },
        }],
      },
      data: { password: b64 },
      type: 'Opaque',
    },
  };
}

/**
 * A later write of a Deployment observation: `manager` takes `.spec.replicas` with an Update (an ownership
 * change, not only a new body), at `resourceVersion`.
 */
export function scaledBy(o: Observation, manager: string, replicas: number, resourceVersion: string): Observation {
  const m = o.object.metadata;
  const entry = { manager, operation: 'Update', apiVersion: 'apps/v1', time: '2026-11-21T10:05:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } };
  return { ...o, object: { ...o.object, spec: { ...(o.object['spec'] as object), replicas }, metadata: { ...m, resourceVersion, managedFields: [...(m.managedFields ?? []), entry] } } };
}
