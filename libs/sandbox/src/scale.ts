import type { KubeObject } from '../../ssa-engine/src/index.js';
import { type Obj, isObject, metaOf } from './json.js';

/** The `autoscaling/v1` Scale view of an object with `.spec.replicas` (what `GET …/scale` answers). */
export function scaleOf(obj: Obj): KubeObject {
  const md = metaOf(obj);
  const spec = isObject(obj['spec']) ? obj['spec'] : {};
  const status = isObject(obj['status']) ? obj['status'] : {};
  const sel = isObject(spec['selector']) && isObject(spec['selector']['matchLabels']) ? (spec['selector']['matchLabels'] as Obj) : {};
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: md['name'] as string,
      ...(md['namespace'] ? { namespace: md['namespace'] as string } : {}),
      uid: md['uid'] as string,
      resourceVersion: md['resourceVersion'] as string,
      creationTimestamp: md['creationTimestamp'] as string,
    },
    spec: { ...(spec['replicas'] !== undefined ? { replicas: spec['replicas'] as number } : {}) },
    status: {
      replicas: (status['replicas'] as number) ?? 0,
      ...(Object.keys(sel).length
        ? { selector: Object.keys(sel).sort().map((k) => `${k}=${String(sel[k])}`).join(',') }
        : {}),
    },
  };
}
