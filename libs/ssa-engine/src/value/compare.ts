import { isMap, type Value, type ValueMap } from './value.js';

/**
 * Compares strings by Unicode code point, which is the UTF-8 byte order Go uses (01 §6.1).
 * JavaScript's `<` compares UTF-16 units and disagrees for astral characters vs U+E000–U+FFFF.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca !== cb) {
      if (ca >= 0xd800 && cb >= 0xd800) {
        // Move surrogates (0xD800–0xDFFF) above the BMP's upper range: code-point order.
        ca = ca >= 0xe000 ? ca - 0x800 : ca + 0x2000;
        cb = cb >= 0xe000 ? cb - 0x800 : cb + 0x2000;
      }
      return ca - cb;
    }
  }
  return a.length - b.length;
}

/** Kind rank for the total value order: number < string < bool < list < map < null (01 §1.2). */
function rank(v: Value): number {
  switch (typeof v) {
    case 'number':
      return 0;
    case 'string':
      return 1;
    case 'boolean':
      return 2;
    default:
      if (v === null) return 5;
      return Array.isArray(v) ? 3 : 4;
  }
}

function sortedKeys(m: ValueMap): string[] {
  return Object.keys(m).sort(compareStrings);
}

/** The total order on values (01 §1.2); ints and floats compare numerically. */
export function compareValues(a: Value, b: Value): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as readonly Value[];
      const lb = b as readonly Value[];
      const n = Math.min(la.length, lb.length);
      for (let i = 0; i < n; i++) {
        const c = compareValues(la[i]!, lb[i]!);
        if (c !== 0) return c;
      }
      return la.length - lb.length;
    }
    case 4:
      return compareMaps(a as ValueMap, b as ValueMap);
    default:
      return 0;
  }
}

function compareMaps(a: ValueMap, b: ValueMap): number {
  const ka = sortedKeys(a);
  const kb = sortedKeys(b);
  // Walk the union of keys in order with a position counter (01 §1.2).
  let i = 0;
  let ia = 0;
  let ib = 0;
  while (ia < ka.length || ib < kb.length) {
    if (i === ka.length) return -1;
    if (i === kb.length) return 1;
    const x = ka[ia];
    const y = kb[ib];
    const c = x === undefined ? 1 : y === undefined ? -1 : compareStrings(x, y);
    if (c < 0) return -1; // key missing on the right: left is smaller
    if (c > 0) return 1; // key missing on the left: left is larger
    const vc = compareValues(a[x!]!, b[y!]!);
    if (vc !== 0) return vc;
    ia++;
    ib++;
    i++;
  }
  return 0;
}

/** Value equality (01 §1.1): numbers numerically, lists in order, maps by key set. */
export function valueEquals(a: Value | undefined, b: Value | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  const ta = typeof a;
  if (ta !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valueEquals(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isMap(a) || !isMap(b)) return false;
  let n = 0;
  for (const k in a) {
    if (!Object.prototype.hasOwnProperty.call(a, k)) continue;
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!valueEquals(a[k], b[k])) return false;
    n++;
  }
  for (const k in b) if (Object.prototype.hasOwnProperty.call(b, k)) n--;
  return n === 0;
}
