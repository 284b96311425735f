import { MAX_DEPTH, SsaEngineError } from '../errors.js';
import { encodeBuiltinObject } from '../encoding/encode-builtin-object.js';
import { compareStrings } from '../value/compare.js';
import { setKey, type Value, type ValueMap } from '../value/value.js';
import type { KubeObject } from './field-manager.js';

/** How the server re-encodes objects of one kind, and the empty object a create starts from. */
export interface Normalizer {
  readonly normalize: (obj: KubeObject) => KubeObject;
  readonly emptyObject: () => KubeObject;
}

function sortKeysDeep(v: Value, depth = 0): Value {
  // Atomic lists are not walked by the typed code, so hostile nesting can first be met here.
  if (depth > MAX_DEPTH) throw new SsaEngineError('too-deep', `object nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(v)) return v.map((x) => sortKeysDeep(x, depth + 1));
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, Value> = {};
  for (const k of Object.keys(v).sort(compareStrings)) setKey(out, k, sortKeysDeep((v as ValueMap)[k]!, depth + 1));
  return out;
}

/**
 * Built-in kinds are written as their Go types encode them; custom resources are
 * unstructured maps, written with sorted keys, and start from `{apiVersion, kind}` on create.
 */
export function normalizerFor(gvk: { apiVersion: string; kind: string }, builtin: boolean): Normalizer {
  if (builtin) {
    const target = { apiVersion: gvk.apiVersion, kind: gvk.kind };
    return {
      normalize: (obj) => encodeBuiltinObject(obj, target) as KubeObject,
      emptyObject: () => encodeBuiltinObject({}, target) as KubeObject,
    };
  }
  return {
    normalize: (obj) => sortKeysDeep(obj) as KubeObject,
    emptyObject: () => ({ apiVersion: gvk.apiVersion, kind: gvk.kind }),
  };
}
