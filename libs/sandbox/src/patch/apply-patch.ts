import jsonPatch from 'fast-json-patch';
import type { ResolvedType } from '../../../ssa-engine/src/index.js';
import { ApiError, badRequest } from '../api-error.js';
import { applyMergePatch } from './json-merge-patch.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import { type Obj, isObject } from '../json.js';

/** Applies a JSON patch, JSON merge patch or strategic merge patch to an object; failures are ApiErrors. */
export function applyPatch(type: ResolvedType, live: Obj, patchType: 'json' | 'merge' | 'strategic', patch: unknown): Obj {
  switch (patchType) {
    case 'json': {
      if (!Array.isArray(patch)) throw badRequest('json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
      try {
        const r = jsonPatch.applyPatch(structuredClone(live), patch as jsonPatch.Operation[], true, false, true);
        if (!isObject(r.newDocument)) throw badRequest('the patched object is not a JSON object');
        return r.newDocument;
      } catch (e) {
        if (e instanceof ApiError) throw e;
        const err = e as { name?: string; message: string };
        if (err.name === 'TEST_OPERATION_FAILED') throw new ApiError('Invalid', `the server rejected our request due to an error in our request`, undefined, undefined, 422);
        throw new ApiError('Invalid', `the server rejected our request due to an error in our request: ${err.message.split('\n')[0]}`, undefined, undefined, 422);
      }
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
