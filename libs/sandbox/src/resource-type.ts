import { BUILTIN_SCHEMA, builtinTypeName, DEDUCED_TYPE, type ResolvedType } from '../../ssa-engine/src/index.js';

/** How `/scale` maps onto an object (the CRD `scale` subresource's paths; fixed for built-ins). */
export interface ScaleSpec {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

/** One servable resource: a kind at one group-version, with its REST name and schema. */
export interface ResourceType {
  readonly group: string;
  readonly version: string;
  /** `v1`, `apps/v1`. */
  readonly apiVersion: string;
  readonly kind: string;
  /** The REST name: `deployments`. */
  readonly plural: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly status: boolean;
  readonly scale?: ScaleSpec;
  /** The type the SSA engine tracks ownership with. */
  readonly type: ResolvedType;
  /** Built-in kinds are written as their Go types encode them; custom resources keep what was sent. */
  readonly builtin: boolean;
  /** Whether writes bump `metadata.generation` (kinds with a spec; all custom resources). */
  readonly generation: boolean;
  /** A custom resource's published schema (the CRD version's `openAPIV3Schema`). */
  readonly openAPIV3Schema?: unknown;
  /** A custom resource's `additionalPrinterColumns`. */
  readonly printerColumns?: readonly PrinterColumn[];
}

export interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly jsonPath: string;
  readonly priority: number;
}

/** `group/resource`, the identity of a resource in the store. */
export const resourceKey = (r: Pick<ResourceType, 'group' | 'plural'>) => (r.group ? `${r.group}/${r.plural}` : r.plural);

interface BuiltinSpec {
  apiVersion: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
  status?: boolean;
  scale?: boolean;
  generation?: boolean;
  categories?: string[];
}

const BUILTINS: BuiltinSpec[] = [
  { apiVersion: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false, shortNames: ['ns'], status: true },
  { apiVersion: 'v1', kind: 'Pod', plural: 'pods', namespaced: true, shortNames: ['po'], status: true, categories: ['all'] },
  { apiVersion: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] },
  { apiVersion: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  { apiVersion: 'v1', kind: 'Service', plural: 'services', namespaced: true, shortNames: ['svc'], status: true, categories: ['all'] },
  { apiVersion: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true, shortNames: ['sa'] },
  // Not in the brief's list, but `kubectl describe` and `kubectl get events` read them.
  { apiVersion: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] },
  { apiVersion: 'apps/v1', kind: 'Deployment', plural: 'deployments', namespaced: true, shortNames: ['deploy'], status: true, scale: true, generation: true, categories: ['all'] },
  { apiVersion: 'apps/v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true, shortNames: ['rs'], status: true, scale: true, generation: true, categories: ['all'] },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', plural: 'statefulsets', namespaced: true, shortNames: ['sts'], status: true, scale: true, generation: true, categories: ['all'] },
  { apiVersion: 'apps/v1', kind: 'DaemonSet', plural: 'daemonsets', namespaced: true, shortNames: ['ds'], status: true, generation: true, categories: ['all'] },
  { apiVersion: 'batch/v1', kind: 'Job', plural: 'jobs', namespaced: true, status: true, generation: true, categories: ['all'] },
  { apiVersion: 'batch/v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true, shortNames: ['cj'], status: true, generation: true, categories: ['all'] },
  { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', plural: 'leases', namespaced: true },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', plural: 'roles', namespaced: true },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', plural: 'clusterroles', namespaced: false },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false },
  { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', plural: 'networkpolicies', namespaced: true, shortNames: ['netpol'], generation: true },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true, shortNames: ['pdb'], status: true, generation: true },
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    status: true,
    generation: true,
    categories: ['api-extensions'],
  },
];

const REPLICAS_SCALE: ScaleSpec = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** The built-in resources the sandbox serves. CustomResourceDefinition has no bundled schema: deduced. */
export function builtinResourceTypes(): ResourceType[] {
  return BUILTINS.map((b) => {
    const typeName = builtinTypeName(b.apiVersion, b.kind);
    return {
      ...splitApiVersion(b.apiVersion),
      apiVersion: b.apiVersion,
      kind: b.kind,
      plural: b.plural,
      singular: b.kind.toLowerCase(),
      namespaced: b.namespaced,
      shortNames: b.shortNames ?? [],
      categories: b.categories ?? [],
      status: b.status ?? false,
      ...(b.scale ? { scale: REPLICAS_SCALE } : {}),
      type: typeName ? BUILTIN_SCHEMA.type(typeName) : DEDUCED_TYPE,
      builtin: typeName !== undefined,
      generation: b.generation ?? false,
    };
  });
}

export { splitApiVersion };
