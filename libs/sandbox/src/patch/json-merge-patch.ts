import { isObject } from '../json.js';

type Json = unknown;

/** RFC 7386 JSON merge patch: maps merge recursively, `null` deletes, everything else replaces. */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else Object.defineProperty(out, k, { value: applyMergePatch(out[k], v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
