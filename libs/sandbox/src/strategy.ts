import type { ResourceType } from './resource-type.js';
import { type Obj, isObject } from './json.js';

/**
 * What the registry strategies and REST storage set on create, after the field manager ran: it is
 * part of the stored object but owned by nobody (05 §2 step 4). Only what clients commonly look at.
 */
export function prepareForCreate(rt: ResourceType, o: Obj, allocateClusterIp: () => string): void {
  if (!rt.builtin) return;
  switch (`${rt.apiVersion}/${rt.kind}`) {
    case 'v1/Namespace':
      o['spec'] = { finalizers: ['kubernetes'] };
      o['status'] = { phase: 'Active' };
      return;
    case 'v1/Pod':
      o['status'] = { phase: 'Pending', qosClass: 'BestEffort' };
      return;
    case 'batch/v1/Job':
      generateJobSelector(o);
      return;
    case 'v1/Service': {
      const spec = isObject(o['spec']) ? { ...o['spec'] } : {};
      if (spec['type'] !== 'ExternalName') {
        if (!spec['clusterIP']) spec['clusterIP'] = allocateClusterIp();
        if (spec['clusterIP'] !== 'None' && !Array.isArray(spec['clusterIPs'])) spec['clusterIPs'] = [spec['clusterIP']];
        if (!spec['ipFamilies']) spec['ipFamilies'] = ['IPv4'];
        if (!spec['ipFamilyPolicy']) spec['ipFamilyPolicy'] = 'SingleStack';
      }
      o['spec'] = spec;
      o['status'] = { loadBalancer: {} };
      return;
    }
    default:
      return;
  }
}

/** What the strategies keep from the stored object on update (allocated values, namespace finalizers). */
export function prepareForUpdate(rt: ResourceType, live: Obj, o: Obj): void {
  if (!rt.builtin) return;
  switch (`${rt.apiVersion}/${rt.kind}`) {
    case 'v1/Namespace':
      if (live['spec'] !== undefined) o['spec'] = live['spec'];
      return;
    case 'batch/v1/Job':
      generateJobSelector(o);
      return;
    case 'v1/Service': {
      const ls = isObject(live['spec']) ? live['spec'] : {};
      const spec = isObject(o['spec']) ? { ...o['spec'] } : {};
      for (const k of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) if ((spec[k] === undefined || spec[k] === '') && ls[k] !== undefined) spec[k] = ls[k];
      o['spec'] = spec;
      return;
    }
    default:
      return;
  }
}

/** The Job strategy's generateSelector: unless `manualSelector`, the Job's pods are selected by its uid. */
function generateJobSelector(o: Obj): void {
  const spec = isObject(o['spec']) ? { ...o['spec'] } : {};
  if (spec['manualSelector'] === true) return;
  const md = isObject(o['metadata']) ? o['metadata'] : {};
  const ids = { 'batch.kubernetes.io/controller-uid': md['uid'], 'batch.kubernetes.io/job-name': md['name'], 'controller-uid': md['uid'], 'job-name': md['name'] };
  spec['selector'] = { matchLabels: { 'batch.kubernetes.io/controller-uid': md['uid'] } };
  const template = isObject(spec['template']) ? { ...spec['template'] } : {};
  const tmd = isObject(template['metadata']) ? { ...template['metadata'] } : {};
  tmd['labels'] = { ...(isObject(tmd['labels']) ? tmd['labels'] : {}), ...ids };
  template['metadata'] = tmd;
  spec['template'] = template;
  o['spec'] = spec;
}
