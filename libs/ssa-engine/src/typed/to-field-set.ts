import { MAX_DEPTH, SsaEngineError } from '../errors.js';
import { FieldSet, FieldSetBuilder } from '../fieldpath/field-set.js';
import type { PathElement } from '../fieldpath/path-element.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import { isMap, mapSize, type Value, type ValueMap } from '../value/value.js';
import { deduceFacets, handlerOf, LIST, MAP, SCALAR } from './atom.js';
import { fieldPE, listItemPE } from './list-item.js';

/**
 * The set of fields an object sets (03 §2): what an applier of `value` owns. Struct fields
 * holding non-empty containers are not members; map elements, list items, null and `{}` are.
 * Duplicated list items are added once, without their sub-fields. Invalid parts are skipped
 * (validate first when that matters).
 */
export function toFieldSet(value: Value, type: ResolvedType): FieldSet {
  const b = new FieldSetBuilder();
  walk(value, type, [], b);
  return b.build();
}

function walk(v: Value, t: ResolvedType, path: PathElement[], b: FieldSetBuilder): void {
  if (path.length > MAX_DEPTH) throw new SsaEngineError('too-deep', `object nested deeper than ${MAX_DEPTH} levels`);
  switch (handlerOf(deduceFacets(t, v))) {
    case SCALAR:
      b.insert(path);
      return;
    case LIST: {
      const l = t.list!;
      if (l.atomic) {
        b.insert(path);
        return;
      }
      if (!Array.isArray(v)) return;
      walkList(v, l, path, b);
      return;
    }
    case MAP: {
      const m = t.map!;
      if (m.atomic) {
        b.insert(path);
        return;
      }
      if (!isMap(v)) return;
      walkMap(v, m, path, b);
      return;
    }
  }
}

function walkList(items: readonly Value[], l: NonNullable<ResolvedType['list']>, path: PathElement[], b: FieldSetBuilder): void {
  const pes: (PathElement | undefined)[] = new Array(items.length);
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const pe = listItemPE(l, items[i]!);
    if (typeof pe === 'string') continue; // unidentifiable items are a validation error
    pes[i] = pe;
    if (seen.has(pe.str)) {
      if (!dup.has(pe.str)) {
        dup.add(pe.str);
        b.insertUnder(path, pe);
      }
    } else seen.add(pe.str);
  }
  for (let i = 0; i < items.length; i++) {
    const pe = pes[i];
    if (pe === undefined || dup.has(pe.str)) continue;
    path.push(pe);
    walk(items[i]!, l.elementType, path, b);
    b.insert(path);
    path.pop();
  }
}

function walkMap(m: ValueMap, mt: NonNullable<ResolvedType['map']>, path: PathElement[], b: FieldSetBuilder): void {
  for (const key of Object.keys(m)) {
    const val = m[key]!;
    const f = mt.fields.get(key);
    const ft = f ? f.type : mt.elementType;
    path.push(fieldPE(key));
    if (ft) walk(val, ft, path, b);
    if (val === null || (isMap(val) && mapSize(val) === 0) || !f) b.insert(path);
    path.pop();
  }
}
