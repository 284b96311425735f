import type { ResolvedType } from '../schema/resolved-schema.js';
import type { Value } from '../value/value.js';

/** Facet bits of an atom (02 §1.3). */
export const MAP = 1;
export const SCALAR = 2;
export const LIST = 4;

function facets(t: ResolvedType): number {
  return (t.map ? MAP : 0) | (t.scalar ? SCALAR : 0) | (t.list ? LIST : 0);
}

/**
 * "Deduce atom" (02 §1.3): the single facet that fits the value's kind, or the whole atom when
 * that facet is missing or the value is null/absent. Returned as facet bits so two deductions
 * can be compared.
 */
export function deduceFacets(t: ResolvedType, v: Value | undefined): number {
  if (v !== undefined && v !== null) {
    if (typeof v === 'object') {
      if (Array.isArray(v)) {
        if (t.list) return LIST;
      } else if (t.map) return MAP;
    } else if (t.scalar) return SCALAR;
  }
  return facets(t);
}

/** The handler an atom dispatches to: map, then scalar, then list; 0 for an empty atom. */
export function handlerOf(bits: number): number {
  return bits & MAP ? MAP : bits & SCALAR ? SCALAR : bits & LIST ? LIST : 0;
}
