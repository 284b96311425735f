import { FieldSet } from '../fieldpath/field-set.js';
import { fieldName } from '../fieldpath/path-element.js';
import { BUILTIN_SCHEMA } from '../schema/builtin-schema.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import { decodeManagedFields, encodeManagedFields, type Managers } from '../managed-fields/managed-fields.js';
import { isMap, type Value, type ValueMap } from '../value/value.js';
import { FieldManager, type KubeObject } from './field-manager.js';
import { encodeBuiltinObject } from '../encoding/encode-builtin-object.js';
import { metadataOf as meta } from './object-meta.js';

const SCALE_GV = 'autoscaling/v1';
const SCALE_TYPE = 'io.k8s.api.autoscaling.v1.Scale';
const REPLICAS = [fieldName('spec'), fieldName('replicas')];
const REPLICAS_SET = FieldSet.fromPaths([REPLICAS]);

export interface ScaleOptions {
  readonly now: () => string;
  readonly parentType: ResolvedType;
  readonly normalize: (obj: KubeObject) => KubeObject;
  /** The parent's `group/version` that maps `.spec.replicas` (default: the parent's apiVersion). */
  readonly parentApiVersion?: string;
}


/** The parent's entries seen from `/scale`: owners of replicas, reduced to `.spec.replicas` (05 §7). */
function toSubresource(parent: Managers, gv: string): Managers {
  const out: Managers = new Map();
  for (const [id, e] of parent) {
    if (e.apiVersion !== gv || !e.set.has(REPLICAS)) continue;
    out.set(id, { ...e, apiVersion: SCALE_GV, set: REPLICAS_SET });
  }
  return out;
}

/** Maps the Scale's entries back onto the parent's (apimachinery `ScaleHandler.ToParent`). */
function toParent(parent: Managers, scale: Managers, gv: string): Managers {
  const out: Managers = new Map();
  const scaleLeft = new Map(scale);
  for (const [id, e] of parent) {
    if (e.apiVersion !== gv) continue; // no replicas mapping for other versions: dropped
    if (!e.set.has(REPLICAS)) {
      out.set(id, e);
      continue;
    }
    if (!scale.has(id)) {
      const s = e.set.difference(REPLICAS_SET);
      if (!s.isEmpty) out.set(id, { ...e, set: s });
    } else {
      out.set(id, e);
      scaleLeft.delete(id);
    }
  }
  for (const [id, e] of scaleLeft) {
    if (!e.set.has(REPLICAS)) continue;
    // A new owner through /scale: the parent's version, no time (the parent list had none for it).
    out.set(id, { ...e, apiVersion: gv, set: REPLICAS_SET, time: parent.get(id)?.time });
  }
  return out;
}

function labelSelectorString(sel: Value | undefined): string {
  const ml = isMap(sel) && isMap(sel['matchLabels']) ? (sel['matchLabels'] as ValueMap) : {};
  return Object.keys(ml)
    .sort()
    .map((k) => `${k}=${String(ml[k])}`)
    .join(',');
}

/**
 * An update through the `/scale` subresource of `parent` with `scale` (an autoscaling/v1 Scale),
 * as the apiserver does it: the field manager runs on the Scale view of the parent and its
 * entries are mapped back; the parent's `.spec.replicas` takes the new value. Entries pass through
 * a Go map on the way back, so every FieldsV1 is written with sorted keys.
 */
export function updateScale(parent: KubeObject, scale: KubeObject, manager: string, opts: ScaleOptions): KubeObject {
  const gv = opts.parentApiVersion ?? String(parent['apiVersion']);
  const parentManagers = decodeManagedFields(meta(parent)['managedFields']);
  const pm = meta(parent);
  const spec = isMap(parent['spec']) ? (parent['spec'] as ValueMap) : {};
  const status = isMap(parent['status']) ? (parent['status'] as ValueMap) : {};
  const oldScale: KubeObject = encodeBuiltinObject(
    {
      apiVersion: SCALE_GV,
      kind: 'Scale',
      metadata: {
        ...(pm['name'] !== undefined ? { name: pm['name'] } : {}),
        ...(pm['namespace'] !== undefined ? { namespace: pm['namespace'] } : {}),
        ...(pm['uid'] !== undefined ? { uid: pm['uid'] } : {}),
        ...(pm['resourceVersion'] !== undefined ? { resourceVersion: pm['resourceVersion'] } : {}),
        ...(pm['creationTimestamp'] !== undefined ? { creationTimestamp: pm['creationTimestamp'] } : {}),
        managedFields: encodeManagedFields(toSubresource(parentManagers, gv)) ?? null,
      },
      spec: { replicas: spec['replicas'] ?? null },
      status: { replicas: status['replicas'] ?? 0, selector: labelSelectorString(spec['selector']) },
    },
    SCALE_TYPE,
  ) as KubeObject;
  const fm = new FieldManager({
    type: BUILTIN_SCHEMA.type(SCALE_TYPE),
    apiVersion: SCALE_GV,
    kind: 'Scale',
    subresource: 'scale',
    now: opts.now,
    normalize: (o) => encodeBuiltinObject(o, SCALE_TYPE) as KubeObject,
    emptyObject: () => encodeBuiltinObject({}, SCALE_TYPE) as KubeObject,
  });
  const newScale = fm.update(oldScale, encodeBuiltinObject(scale, SCALE_TYPE) as KubeObject, manager);
  const scaleManagers = decodeManagedFields(meta(newScale)['managedFields']);
  const merged = toParent(parentManagers, scaleManagers, gv);
  const replicas = isMap(newScale['spec']) ? (newScale['spec'] as ValueMap)['replicas'] : undefined;
  const md: Record<string, Value> = { ...pm };
  delete md['managedFields'];
  const entries = encodeManagedFields(merged, 'sorted-keys');
  if (entries) md['managedFields'] = entries as unknown as Value;
  return opts.normalize({ ...parent, metadata: md, spec: { ...spec, replicas: replicas ?? null } });
}
