import type { ResourceType } from './resource-type.js';
import { type Obj, isObject } from './json.js';

/**
 * What a built-in object keeps of itself on its way through the apiserver's internal version
 * (decoded to the hub type, stored, encoded back to v1): fields the versioned type has and the
 * internal type lacks are folded into the ones they stand for. Mutates `o`.
 *
 * The apiserver decodes create, update and patch bodies to the internal version *before* the
 * field manager runs, so an Update manager owns the folded fields; an apply config is typed at
 * the versioned type, so an Apply manager owns what it wrote, and the fold comes after.
 */
export function throughInternalVersion(rt: ResourceType, o: Obj): void {
  if (rt.builtin && rt.apiVersion === 'v1' && rt.kind === 'Secret') foldStringData(o);
}

/**
 * Convert_v1_Secret_To_core_Secret (kubernetes pkg/apis/core/v1/conversion.go): each stringData
 * entry overwrites `data[key]` with its UTF-8 bytes (base64 in JSON). core.Secret has no
 * stringData, so it is never stored nor returned. An empty stringData changes nothing.
 */
function foldStringData(o: Obj): void {
  const stringData = o['stringData'];
  delete o['stringData'];
  if (!isObject(stringData) || Object.keys(stringData).length === 0) return;
  const data = isObject(o['data']) ? o['data'] : {};
  // fromEntries, not assignment: `__proto__` is a valid Secret key and must stay an own member.
  o['data'] = Object.fromEntries([
    ...Object.entries(data),
    // Go decodes a null map value as "" (the zero string).
    ...Object.entries(stringData).map(([k, v]) => [k, Buffer.from(typeof v === 'string' ? v : '', 'utf8').toString('base64')]),
  ]);
}
