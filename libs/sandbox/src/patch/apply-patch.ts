import { applyPatch as applyJsonPatch, type Operation } from 'rfc6902';
import type { ResolvedType } from '../../../ssa-engine/src/index.js';
import { ApiError, badRequest } from '../api-error.js';
import { applyMergePatch } from './json-merge-patch.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import { type Obj, isObject } from '../json.js';

/** Applies a JSON patch, JSON merge patch or strategic merge patch to an object; failures are ApiErrors. */
export function applyPatch(type: ResolvedType, live: Obj, patchType: 'json' | 'merge' | 'strategic', patch: unknown): Obj {
  switch (patchType) {
    case 'json': {
      if (!Array.isArray(patch) || !patch.every((op) => isObject(op) && typeof op['op'] === 'string' && typeof op['path'] === 'string'))
        throw badRequest('json: cannot unmarshal the patch into a list of JSON patch operations');
      // RFC 6902 is all or nothing: the operations run on a copy, which is dropped at the first error.
      const doc: unknown = structuredClone(live);
      const results = applyJsonPatch(doc, patch as Operation[]);
      const failed = results.find((r) => r !== null);
      if (failed) throw new ApiError('Invalid', `the server rejected our request due to an error in our request: ${failed.name}: ${failed.message}`, undefined, undefined, 422);
      if (!isObject(doc)) throw badRequest('the patched object is not a JSON object');
      return doc;
    }
    case 'merge': {
      const r = applyMergePatch(live, patch);
      if (!isObject(r)) throw badRequest('the patched object is not a JSON object');
      return r;
    }
    case 'strategic':
      return applyStrategicMergePatch(live, patch, type);
  }
}
