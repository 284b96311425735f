import type { ResourceType } from './resource-type.js';
import { type Obj, isObject } from './json.js';

/** Sets a default where Go would see the zero value of an optional field (absent, null, or ""). */
function dflt(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null || o[key] === '') o[key] = value;
}

function obj(o: Obj, key: string): Obj | undefined {
  return isObject(o[key]) ? (o[key] as Obj) : undefined;
}

/** A `RollingUpdate` strategy by default, with its rolling-update parameters (an empty struct counts as unset). */
function rollingStrategy(spec: Obj, key: string, rolling: Obj): void {
  dflt(spec, key, {});
  const s = obj(spec, key);
  if (!s) return;
  dflt(s, 'type', 'RollingUpdate');
  if (s['type'] !== 'RollingUpdate') return;
  dflt(s, 'rollingUpdate', {});
  const ru = obj(s, 'rollingUpdate');
  if (ru) for (const [k, v] of Object.entries(rolling)) dflt(ru, k, v);
}

function imagePullPolicy(image: unknown): string {
  if (typeof image !== 'string') return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const last = image.slice(image.lastIndexOf('/') + 1);
  const tag = last.includes(':') ? last.slice(last.indexOf(':') + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(p: unknown): void {
  if (!isObject(p)) return;
  dflt(p, 'timeoutSeconds', 1);
  dflt(p, 'periodSeconds', 10);
  dflt(p, 'successThreshold', 1);
  dflt(p, 'failureThreshold', 3);
}

function defaultContainers(list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const c of list) {
    if (!isObject(c)) continue;
    dflt(c, 'terminationMessagePath', '/dev/termination-log');
    dflt(c, 'terminationMessagePolicy', 'File');
    dflt(c, 'imagePullPolicy', imagePullPolicy(c['image']));
    if (Array.isArray(c['ports'])) for (const p of c['ports']) if (isObject(p)) dflt(p, 'protocol', 'TCP');
    for (const k of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(c[k]);
  }
}

/** Volume sources whose files get mode 0644 (420) unless told otherwise. */
function defaultVolumes(list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const v of list) {
    if (!isObject(v)) continue;
    for (const k of ['configMap', 'secret', 'projected', 'downwardAPI']) if (isObject(v[k])) dflt(v[k] as Obj, 'defaultMode', 420);
  }
}

/** The scheme defaults of a PodSpec (k8s.io/kubernetes pkg/apis/core/v1/defaults.go, the common ones). */
function defaultPodSpec(spec: Obj | undefined): void {
  if (!spec) return;
  dflt(spec, 'restartPolicy', 'Always');
  dflt(spec, 'terminationGracePeriodSeconds', 30);
  dflt(spec, 'dnsPolicy', 'ClusterFirst');
  dflt(spec, 'securityContext', {});
  dflt(spec, 'schedulerName', 'default-scheduler');
  defaultContainers(spec['containers']);
  defaultContainers(spec['initContainers']);
  defaultVolumes(spec['volumes']);
}

function defaultTemplate(spec: Obj | undefined): void {
  const t = spec ? obj(spec, 'template') : undefined;
  if (t) defaultPodSpec(obj(t, 'spec'));
}

/**
 * The scheme defaulting the apiserver runs when it decodes a request (the common defaults of the
 * served built-in kinds, not all of them). On non-apply writes the writer owns what defaulting
 * added; after an apply nobody does (05 §2).
 */
export function applyDefaults(rt: ResourceType, o: Obj): void {
  if (!rt.builtin) return;
  const spec = obj(o, 'spec');
  switch (`${rt.apiVersion}/${rt.kind}`) {
    case 'v1/Namespace': {
      const md = obj(o, 'metadata');
      if (md && typeof md['name'] === 'string') {
        const labels = { ...(obj(md, 'labels') ?? {}) };
        labels['kubernetes.io/metadata.name'] = md['name'];
        md['labels'] = labels;
      }
      return;
    }
    case 'v1/Pod':
      if (spec) dflt(spec, 'enableServiceLinks', true);
      defaultPodSpec(spec);
      return;
    case 'v1/Service':
      if (!spec) return;
      dflt(spec, 'type', 'ClusterIP');
      dflt(spec, 'sessionAffinity', 'None');
      if (spec['type'] === 'ClusterIP' || spec['type'] === 'NodePort' || spec['type'] === 'LoadBalancer') dflt(spec, 'internalTrafficPolicy', 'Cluster');
      if (Array.isArray(spec['ports']))
        for (const p of spec['ports']) if (isObject(p)) {
          dflt(p, 'protocol', 'TCP');
          // intstr's zero value (0) is what the Go types hold for an absent targetPort.
          if (p['targetPort'] === 0) delete p['targetPort'];
          dflt(p, 'targetPort', p['port']);
        }
      return;
    case 'apps/v1/Deployment':
      if (!spec) return;
      dflt(spec, 'replicas', 1);
      dflt(spec, 'revisionHistoryLimit', 10);
      dflt(spec, 'progressDeadlineSeconds', 600);
      rollingStrategy(spec, 'strategy', { maxUnavailable: '25%', maxSurge: '25%' });
      defaultTemplate(spec);
      return;
    case 'apps/v1/ReplicaSet':
      if (spec) dflt(spec, 'replicas', 1);
      defaultTemplate(spec);
      return;
    case 'apps/v1/StatefulSet':
      if (!spec) return;
      dflt(spec, 'replicas', 1);
      dflt(spec, 'podManagementPolicy', 'OrderedReady');
      dflt(spec, 'revisionHistoryLimit', 10);
      rollingStrategy(spec, 'updateStrategy', { partition: 0 });
      defaultTemplate(spec);
      return;
    case 'apps/v1/DaemonSet':
      if (!spec) return;
      dflt(spec, 'revisionHistoryLimit', 10);
      rollingStrategy(spec, 'updateStrategy', { maxUnavailable: 1, maxSurge: 0 });
      defaultTemplate(spec);
      return;
    case 'batch/v1/Job':
      if (!spec) return;
      dflt(spec, 'parallelism', 1);
      dflt(spec, 'completions', 1);
      dflt(spec, 'backoffLimit', 6);
      dflt(spec, 'completionMode', 'NonIndexed');
      dflt(spec, 'suspend', false);
      dflt(spec, 'manualSelector', false);
      dflt(spec, 'podReplacementPolicy', 'TerminatingOrFailed');
      defaultTemplate(spec);
      return;
    case 'batch/v1/CronJob':
      if (!spec) return;
      dflt(spec, 'concurrencyPolicy', 'Allow');
      dflt(spec, 'suspend', false);
      dflt(spec, 'successfulJobsHistoryLimit', 3);
      dflt(spec, 'failedJobsHistoryLimit', 1);
      {
        const jt = obj(spec, 'jobTemplate');
        defaultTemplate(jt ? obj(jt, 'spec') : undefined);
      }
      return;
    case 'v1/Secret':
      dflt(o, 'type', 'Opaque');
      return;
    case 'networking.k8s.io/v1/NetworkPolicy':
      if (!spec) return;
      // SetDefaults_NetworkPolicySpec: Ingress always, Egress when egress rules are given; ports TCP.
      if (!Array.isArray(spec['policyTypes']) || spec['policyTypes'].length === 0)
        spec['policyTypes'] = Array.isArray(spec['egress']) && spec['egress'].length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
      for (const dir of ['ingress', 'egress'])
        if (Array.isArray(spec[dir]))
          for (const rule of spec[dir]) if (isObject(rule) && Array.isArray(rule['ports'])) for (const p of rule['ports']) if (isObject(p)) dflt(p, 'protocol', 'TCP');
      return;
    case 'rbac.authorization.k8s.io/v1/RoleBinding':
    case 'rbac.authorization.k8s.io/v1/ClusterRoleBinding':
      // SetDefaults_Subject: User and Group subjects are in the rbac group (ServiceAccounts in core, "").
      if (Array.isArray(o['subjects']))
        for (const s of o['subjects']) if (isObject(s)) {
          if (s['kind'] === 'User' || s['kind'] === 'Group') dflt(s, 'apiGroup', 'rbac.authorization.k8s.io');
        }
      return;
    default:
      return;
  }
}
