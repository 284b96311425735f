import { FieldSet } from '../fieldpath/field-set.js';
import { FIELD, KEY, type PathElement } from '../fieldpath/path-element.js';
import { comparePE } from '../fieldpath/path-element.js';
import type { ResolvedType } from '../schema/resolved-schema.js';

/**
 * Makes every child key that is a declared struct field of its node's map type a member too,
 * recursively (01 §3.1): what keeps intermediate structs alive during pruning.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, type: ResolvedType | undefined): FieldSet {
  if (set.children.length === 0) return set;
  const m = type?.map;
  const l = type?.list;
  let members: PathElement[] | undefined;
  const sets: FieldSet[] = [];
  let changed = false;
  set.children.forEach((pe, i) => {
    let ct: ResolvedType | undefined;
    if (pe.kind === FIELD && m) {
      const f = m.fields.get(pe.name);
      ct = f ? f.type : m.elementType;
      if (f && !set.hasMember(pe)) {
        (members ??= [...set.members]).push(pe);
      }
    } else if (pe.kind === KEY && l) ct = l.elementType;
    const cs = set.childSets[i]!;
    const ns = ensureNamedFieldsAreMembers(cs, ct);
    if (ns !== cs) changed = true;
    sets.push(ns);
  });
  if (!members && !changed) return set;
  const ms = members ? members.sort(comparePE) : set.members;
  return new FieldSet(ms, set.children, sets);
}
