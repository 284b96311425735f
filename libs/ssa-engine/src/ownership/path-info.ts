import type { Path } from '../fieldpath/field-set.js';
import { FIELD, INDEX, KEY, VALUE, type PathElement } from '../fieldpath/path-element.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import { valueEquals } from '../value/compare.js';
import { getKey, isMap, type Value } from '../value/value.js';
import { pathToHuman } from '../fieldpath/field-set.js';

/**
 * What a path names, for the pruning rule (07 §3): a struct field (declared in the schema) is kept
 * alive by owners of anything below it; a map element or list item only by owners of itself.
 */
export type PathKind = 'root' | 'struct-field' | 'map-element' | 'list-item';

/** A path in both printed forms. */
export interface PathForms {
  /** Human form (`.spec.containers[name="nginx"].image`). */
  readonly path: string;
  /** FieldsV1 dotted form (`f:spec.f:containers.k:{"name":"nginx"}.f:image`). */
  readonly fieldsV1: string;
}

/** Both printed forms of a path. */
export function pathForms(p: Path): PathForms {
  return { path: pathToHuman(p), fieldsV1: p.map((pe) => pe.str).join('.') };
}

function step(t: ResolvedType | undefined, pe: PathElement): ResolvedType | undefined {
  if (!t) return undefined;
  if (pe.kind === FIELD) {
    const m = t.map;
    return m ? (m.fields.get(pe.name)?.type ?? m.elementType) : undefined;
  }
  return t.list?.elementType;
}

/** The kind of the last element of `p` under `type`. */
export function pathKind(type: ResolvedType, p: Path): PathKind {
  if (p.length === 0) return 'root';
  const last = p[p.length - 1]!;
  if (last.kind !== FIELD) return 'list-item';
  let t: ResolvedType | undefined = type;
  for (let i = 0; i < p.length - 1; i++) t = step(t, p[i]!);
  return t?.map?.fields.has(last.name) ? 'struct-field' : 'map-element';
}

/**
 * Length of the shortest proper prefix of `p` whose value in `obj` is atomic under `type` (an
 * atomic list, map or struct: owned and replaced as one leaf), or `undefined` when there is none.
 */
export function atomicAncestor(type: ResolvedType, obj: Value | undefined, p: Path): number | undefined {
  let t: ResolvedType | undefined = type;
  let v: Value | undefined = obj;
  for (let i = 0; i < p.length - 1; i++) {
    t = step(t, p[i]!);
    v = valueAt(v, [p[i]!]);
    if (!t) return undefined;
    const atomic = Array.isArray(v) ? t.list?.atomic : isMap(v) ? t.map?.atomic : false;
    if (atomic) return i + 1;
  }
  return undefined;
}

/** The value at `p` in a plain JSON object, `undefined` when absent. */
export function valueAt(obj: Value | undefined, p: Path): Value | undefined {
  let v = obj;
  for (const pe of p) {
    if (v === undefined || v === null) return undefined;
    switch (pe.kind) {
      case FIELD:
        if (!isMap(v)) return undefined;
        v = getKey(v, pe.name);
        break;
      case INDEX:
        if (!Array.isArray(v)) return undefined;
        v = (v as readonly Value[])[pe.index];
        break;
      case VALUE:
        if (!Array.isArray(v)) return undefined;
        v = (v as readonly Value[]).find((x) => valueEquals(x, pe.value));
        break;
      case KEY:
        if (!Array.isArray(v)) return undefined;
        v = (v as readonly Value[]).find(
          (x) => isMap(x) && pe.pairs.every((kp) => getKey(x, kp.name) === undefined || valueEquals(getKey(x, kp.name)!, kp.value)),
        );
        break;
    }
  }
  return v;
}
