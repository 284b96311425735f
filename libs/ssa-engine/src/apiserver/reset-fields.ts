import { FieldSet } from '../fieldpath/field-set.js';
import { fieldName } from '../fieldpath/path-element.js';

const set = (...paths: string[][]) => FieldSet.fromPaths(paths.map((p) => p.map(fieldName)));

/** Kinds whose registry strategy has a status subresource (main endpoint resets `.status`). */
const WITH_STATUS = new Set([
  'v1/Pod',
  'v1/Service',
  'v1/Namespace',
  'v1/Node',
  'v1/PersistentVolume',
  'v1/PersistentVolumeClaim',
  'v1/ReplicationController',
  'v1/ResourceQuota',
  'apps/v1/Deployment',
  'apps/v1/ReplicaSet',
  'apps/v1/StatefulSet',
  'apps/v1/DaemonSet',
  'batch/v1/Job',
  'batch/v1/CronJob',
  'autoscaling/v2/HorizontalPodAutoscaler',
  'autoscaling/v1/HorizontalPodAutoscaler',
  'policy/v1/PodDisruptionBudget',
  'networking.k8s.io/v1/Ingress',
]);

/**
 * The fields an endpoint's strategy resets, which ownership ignores (05 §6): `.status` on the main
 * resource of kinds with a status subresource, `.spec` (and for Pods some metadata) on `/status`.
 */
export function resetFieldsFor(apiVersion: string, kind: string, subresource: string): FieldSet | undefined {
  const key = `${apiVersion}/${kind}`;
  if (!WITH_STATUS.has(key)) return undefined;
  if (subresource === '') return set(['status']);
  if (subresource === 'status') {
    if (key === 'v1/Pod') return set(['spec'], ['metadata', 'deletionTimestamp'], ['metadata', 'ownerReferences']);
    return set(['spec'], ['metadata', 'labels'], ['metadata', 'annotations'], ['metadata', 'finalizers']);
  }
  return undefined;
}

/** Whether the kind has a `/status` subresource in Kubernetes. */
export function hasStatusSubresource(apiVersion: string, kind: string): boolean {
  return WITH_STATUS.has(`${apiVersion}/${kind}`);
}
