/**
 * Hand-written OpenAPI v3 fragments, shaped as the apiserver publishes them
 * (`/openapi/v3/apis/apps/v1`), must convert to the same types as the bundled schema, which
 * kube-openapi generated from the real OpenAPI.
 */
import { BUILTIN_SCHEMA_DOCUMENT } from './builtin-schema.js';
import { schemaFromOpenApi } from './from-openapi.js';
import type { TypeDef } from './schema.js';

const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });
const allOf = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ allOf: [ref(name)], ...extra });
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const CORE = 'io.k8s.api.core.v1';
const APPS = 'io.k8s.api.apps.v1';
const str = { type: 'string' };
const int32 = { type: 'integer', format: 'int32' };
const stringMap = { type: 'object', additionalProperties: { type: 'string', default: '' } };
/** A list-map of a named type as published: list type, keys and (for core types) the patch strategy. */
const listMap = (item: string, keys: string[], strategy?: string): Record<string, unknown> => ({
  type: 'array',
  items: allOf(item, { default: {} }),
  'x-kubernetes-list-map-keys': keys,
  'x-kubernetes-list-type': 'map',
  ...(strategy ? { 'x-kubernetes-patch-merge-key': keys[0], 'x-kubernetes-patch-strategy': strategy } : {}),
});

const schemas: Record<string, unknown> = {
  [`${META}.Time`]: { type: 'string', format: 'date-time' },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { oneOf: [{ type: 'string' }, { type: 'number' }] },
  [`${META}.ObjectMeta`]: {
    type: 'object',
    properties: {
      annotations: stringMap,
      creationTimestamp: allOf(`${META}.Time`),
      deletionGracePeriodSeconds: { type: 'integer', format: 'int64' },
      deletionTimestamp: allOf(`${META}.Time`),
      finalizers: {
        type: 'array',
        items: { type: 'string', default: '' },
        'x-kubernetes-list-type': 'set',
        'x-kubernetes-patch-strategy': 'merge',
      },
      generateName: str,
      generation: { type: 'integer', format: 'int64' },
      labels: stringMap,
      managedFields: {
        type: 'array',
        items: allOf(`${META}.ManagedFieldsEntry`, { default: {} }),
        'x-kubernetes-list-type': 'atomic',
      },
      name: str,
      namespace: str,
      ownerReferences: listMap(`${META}.OwnerReference`, ['uid'], 'merge'),
      resourceVersion: str,
      selfLink: str,
      uid: str,
    },
  },
  [`${META}.ManagedFieldsEntry`]: {
    type: 'object',
    properties: {
      apiVersion: str,
      fieldsType: str,
      fieldsV1: allOf(`${META}.FieldsV1`),
      manager: str,
      operation: str,
      subresource: str,
      time: allOf(`${META}.Time`),
    },
  },
  [`${META}.LabelSelector`]: {
    type: 'object',
    properties: {
      matchExpressions: {
        type: 'array',
        items: allOf(`${META}.LabelSelectorRequirement`, { default: {} }),
        'x-kubernetes-list-type': 'atomic',
      },
      matchLabels: stringMap,
    },
    'x-kubernetes-map-type': 'atomic',
  },
  [`${CORE}.ContainerPort`]: {
    type: 'object',
    required: ['containerPort'],
    properties: {
      containerPort: { ...int32, default: 0 },
      hostIP: str,
      hostPort: int32,
      name: str,
      protocol: { type: 'string', default: 'TCP', enum: ['SCTP', 'TCP', 'UDP'] },
    },
  },
  [`${CORE}.ServicePort`]: {
    type: 'object',
    required: ['port'],
    properties: {
      appProtocol: str,
      name: str,
      nodePort: int32,
      port: { ...int32, default: 0 },
      protocol: { type: 'string', default: 'TCP', enum: ['SCTP', 'TCP', 'UDP'] },
      targetPort: allOf('io.k8s.apimachinery.pkg.util.intstr.IntOrString'),
    },
  },
  [`${CORE}.ResourceRequirements`]: {
    type: 'object',
    properties: {
      claims: listMap(`${CORE}.ResourceClaim`, ['name']),
      limits: { type: 'object', additionalProperties: allOf('io.k8s.apimachinery.pkg.api.resource.Quantity') },
      requests: { type: 'object', additionalProperties: allOf('io.k8s.apimachinery.pkg.api.resource.Quantity') },
    },
  },
  // A subset of Container's properties (compared field by field).
  [`${CORE}.Container`]: {
    type: 'object',
    required: ['name'],
    properties: {
      args: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic' },
      env: listMap(`${CORE}.EnvVar`, ['name'], 'merge'),
      image: str,
      name: { type: 'string', default: '' },
      ports: listMap(`${CORE}.ContainerPort`, ['containerPort', 'protocol'], 'merge'),
      resources: allOf(`${CORE}.ResourceRequirements`, { default: {} }),
      volumeMounts: listMap(`${CORE}.VolumeMount`, ['mountPath'], 'merge'),
    },
  },
  // A subset of PodSpec's properties.
  [`${CORE}.PodSpec`]: {
    type: 'object',
    required: ['containers'],
    properties: {
      containers: listMap(`${CORE}.Container`, ['name'], 'merge'),
      nodeSelector: { type: 'object', additionalProperties: { type: 'string', default: '' }, 'x-kubernetes-map-type': 'atomic' },
      tolerations: { type: 'array', items: allOf(`${CORE}.Toleration`, { default: {} }), 'x-kubernetes-list-type': 'atomic' },
      volumes: listMap(`${CORE}.Volume`, ['name'], 'merge,retainKeys'),
    },
  },
  [`${APPS}.Deployment`]: {
    type: 'object',
    properties: {
      apiVersion: str,
      kind: str,
      metadata: allOf(`${META}.ObjectMeta`, { default: {} }),
      spec: allOf(`${APPS}.DeploymentSpec`, { default: {} }),
      status: allOf(`${APPS}.DeploymentStatus`, { default: {} }),
    },
    'x-kubernetes-group-version-kind': [{ group: 'apps', kind: 'Deployment', version: 'v1' }],
  },
  [`${APPS}.DeploymentSpec`]: {
    type: 'object',
    required: ['selector', 'template'],
    properties: {
      minReadySeconds: int32,
      paused: { type: 'boolean' },
      progressDeadlineSeconds: int32,
      replicas: int32,
      revisionHistoryLimit: int32,
      selector: allOf(`${META}.LabelSelector`),
      strategy: allOf(`${APPS}.DeploymentStrategy`, { default: {}, 'x-kubernetes-patch-strategy': 'retainKeys' }),
      template: allOf(`${CORE}.PodTemplateSpec`, { default: {} }),
    },
  },
};

const FULL = [
  `${META}.Time`,
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  `${META}.ObjectMeta`,
  `${META}.ManagedFieldsEntry`,
  `${META}.LabelSelector`,
  `${CORE}.ContainerPort`,
  `${CORE}.ServicePort`,
  `${CORE}.ResourceRequirements`,
  `${APPS}.Deployment`,
  `${APPS}.DeploymentSpec`,
];
const PARTIAL = [`${CORE}.Container`, `${CORE}.PodSpec`];

const converted = new Map(schemaFromOpenApi({ openapi: '3.0.0', components: { schemas } }).types.map((t) => [t.name, t]));
const bundled = new Map(BUILTIN_SCHEMA_DOCUMENT.types.map((t) => [t.name, t]));
/** JSON round trip: the bundled data has no `undefined`s. */
const plain = (t: TypeDef | undefined): unknown => JSON.parse(JSON.stringify(t ?? null)) as unknown;

describe('OpenAPI v3 conversion agrees with the bundled (kube-openapi generated) schema', () => {
  it.each(FULL)('%s converts to the bundled type', (name) => {
    expect(plain(converted.get(name))).toEqual(plain(bundled.get(name)));
  });

  it.each(PARTIAL)('%s: every converted field equals the bundled field', (name) => {
    const fields = converted.get(name)?.map?.fields ?? [];
    expect(fields.length).toBeGreaterThan(3);
    const bundledFields = new Map((bundled.get(name)?.map?.fields ?? []).map((f) => [f.name, f]));
    for (const f of fields) expect({ name, field: JSON.parse(JSON.stringify(f)) }).toEqual({ name, field: bundledFields.get(f.name) });
  });
});
