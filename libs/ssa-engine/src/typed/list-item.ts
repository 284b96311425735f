import { fieldName, keyElement, valueElement, type KeyPair, type PathElement } from '../fieldpath/path-element.js';
import type { ResolvedList } from '../schema/resolved-schema.js';
import { getKey, hasKey, isMap, type Value, type ValueMap } from '../value/value.js';

/** Thrown-free result of computing a list item's path element (03 §2.3). */
export type ItemPE = PathElement | string;

function goQuotedList(keys: readonly string[]): string {
  return '[' + keys.map((k) => JSON.stringify(k)).join(' ') + ']';
}

/**
 * The path element identifying `item` in an associative list: a key element for list-maps (with
 * schema defaults for missing key fields), a value element for sets. Returns the error message
 * (a string) when the item cannot be identified.
 */
export function listItemPE(list: ResolvedList, item: Value): ItemPE {
  if (!list.associative) return 'invalid indexing of non-associative list';
  if (list.keys.length > 0) {
    if (item === null) return 'associative list with keys may not have a null element';
    if (!isMap(item)) return 'associative list with keys may not have non-map elements';
    const pairs: KeyPair[] = [];
    const m = item as ValueMap;
    for (const k of list.keys) {
      if (hasKey(m, k)) pairs.push({ name: k, value: getKey(m, k)! });
      else {
        const f = list.elementType.map?.fields.get(k);
        if (f && f.default !== undefined && f.default !== null) pairs.push({ name: k, value: f.default as Value });
      }
    }
    if (pairs.length === 0) {
      return `associative list with keys has an element that omits all key fields ${goQuotedList(list.keys)} (and doesn't have default values for any key fields)`;
    }
    return keyElement(pairs);
  }
  if (item === null) return "associative list without keys has an element that's an explicit null";
  if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
  if (typeof item === 'object') return "associative list without keys has an element that's a map type";
  return valueElement(item);
}

const fieldNameCache = new Map<string, PathElement>();

/** The field-name element for a map key; small names are interned (they repeat a lot). */
export function fieldPE(name: string): PathElement {
  let pe = fieldNameCache.get(name);
  if (pe === undefined) {
    pe = fieldName(name);
    if (fieldNameCache.size < 65536 && name.length <= 128) fieldNameCache.set(name, pe);
  }
  return pe;
}
