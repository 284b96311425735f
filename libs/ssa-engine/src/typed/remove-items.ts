import { FieldSet } from '../fieldpath/field-set.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import { isMap, mapSize, setKey, type Value, type ValueMap } from '../value/value.js';
import { deduceFacets, handlerOf, LIST, MAP, SCALAR } from './atom.js';
import { fieldPE, listItemPE } from './list-item.js';

/**
 * Removes every member path of `set` from `value` (03 §6): a member removes the key or item with
 * its subtree, a child node recurses. Containers emptied by the removal become `null` (the parent
 * keeps the key); atomic and empty containers below a recursion are `null` too, as in SMD.
 */
export function removeItems(value: Value, set: FieldSet, type: ResolvedType): Value {
  if (set.isEmpty) return value;
  return remove(value, set, type) ?? null;
}

function remove(v: Value, set: FieldSet, t: ResolvedType): Value | undefined {
  switch (handlerOf(deduceFacets(t, v))) {
    case SCALAR:
      return v;
    case LIST: {
      const l = t.list!;
      if (!Array.isArray(v) || v.length === 0 || l.atomic) return undefined;
      const out: Value[] = [];
      for (const item of v) {
        const pe = listItemPE(l, item);
        if (typeof pe === 'string') {
          out.push(item);
          continue;
        }
        if (set.hasMember(pe)) continue;
        const sub = set.withPrefix(pe);
        out.push(sub.isEmpty ? item : remove(item, sub, l.elementType) ?? null);
      }
      return out.length > 0 ? out : undefined;
    }
    case MAP: {
      const mt = t.map!;
      if (!isMap(v) || mapSize(v) === 0 || mt.atomic) return undefined;
      const out: Record<string, Value> = {};
      let n = 0;
      for (const key of Object.keys(v)) {
        const pe = fieldPE(key);
        if (set.hasMember(pe)) continue;
        let val: Value = (v as ValueMap)[key]!;
        const sub = set.withPrefix(pe);
        if (!sub.isEmpty) {
          const f = mt.fields.get(key);
          const ft = f ? f.type : mt.elementType;
          val = ft ? remove(val, sub, ft) ?? null : null;
        }
        setKey(out, key, val);
        n++;
      }
      return n > 0 ? out : undefined;
    }
    default:
      return undefined;
  }
}
