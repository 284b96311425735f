import { decodeManagedFields, encodeManagedFields, FieldSet, fieldName, type KubeObject, type Managers } from '../../ssa-engine/src/index.js';
import { type Obj, isObject, metaOf } from './json.js';
import type { ScaleSpec } from './resource-type.js';

const REPLICAS = [fieldName('spec'), fieldName('replicas')];

/**
 * The parent's managedFields as `/scale` shows them (05 §7): the owners of `.spec.replicas` at the
 * parent's apiVersion, each reduced to `.spec.replicas` at `autoscaling/v1`.
 */
function scaleManagedFields(obj: Obj): unknown {
  let parent: Managers;
  try {
    parent = decodeManagedFields(metaOf(obj)['managedFields']);
  } catch {
    return undefined;
  }
  const out: Managers = new Map();
  for (const [id, e] of parent)
    if (e.apiVersion === obj['apiVersion'] && e.set.has(REPLICAS)) out.set(id, { ...e, apiVersion: 'autoscaling/v1', set: FieldSet.fromPaths([REPLICAS]) });
  return encodeManagedFields(out);
}

/** The value at a simple dotted path (`.status.replicas`). */
function at(o: Obj, path: string): unknown {
  let v: unknown = o;
  for (const p of path.split('.').filter((x) => x !== '')) v = isObject(v) ? v[p] : undefined;
  return v;
}

function matchLabelsString(sel: unknown): string | undefined {
  const ml = isObject(sel) && isObject(sel['matchLabels']) ? (sel['matchLabels'] as Obj) : {};
  const keys = Object.keys(ml).sort();
  return keys.length ? keys.map((k) => `${k}=${String(ml[k])}`).join(',') : undefined;
}

/**
 * The `autoscaling/v1` Scale view of an object (what `GET …/scale` answers): replicas from the
 * kind's paths; the selector from `.spec.selector` for built-ins, from `labelSelectorPath` (a
 * string) for custom resources.
 */
export function scaleOf(obj: Obj, paths: ScaleSpec, builtin: boolean): KubeObject {
  const md = metaOf(obj);
  const replicas = at(obj, paths.specReplicasPath);
  const managedFields = scaleManagedFields(obj);
  const selector = builtin ? matchLabelsString(at(obj, '.spec.selector')) : paths.labelSelectorPath ? at(obj, paths.labelSelectorPath) : undefined;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: md['name'] as string,
      ...(md['namespace'] ? { namespace: md['namespace'] as string } : {}),
      uid: md['uid'] as string,
      resourceVersion: md['resourceVersion'] as string,
      creationTimestamp: md['creationTimestamp'] as string,
      ...(managedFields ? { managedFields: managedFields as KubeObject['metadata'] } : {}),
    },
    spec: { ...(typeof replicas === 'number' ? { replicas } : {}) },
    status: {
      replicas: (at(obj, paths.statusReplicasPath) as number) ?? 0,
      ...(typeof selector === 'string' && selector ? { selector } : {}),
    },
  };
}
