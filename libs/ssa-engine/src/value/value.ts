/**
 * The engine's value model (spec 01 §1): plain JSON values as `JSON.parse` produces them.
 * `undefined` stands for "absent" and is distinct from `null` everywhere.
 */
export type Value = null | boolean | number | string | readonly Value[] | ValueMap;
export interface ValueMap {
  readonly [key: string]: Value;
}

export function isMap(v: unknown): v is ValueMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isList(v: unknown): v is readonly Value[] {
  return Array.isArray(v);
}

export function isScalar(v: unknown): v is string | number | boolean {
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean';
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Own-property lookup that is safe for untrusted keys such as `__proto__` and `constructor`. */
export function getKey(m: ValueMap, key: string): Value | undefined {
  return hasOwn.call(m, key) ? m[key] : undefined;
}

export function hasKey(m: ValueMap, key: string): boolean {
  return hasOwn.call(m, key);
}

/** Assigns an own property even for `__proto__` (plain assignment would change the prototype). */
export function setKey(m: Record<string, Value>, key: string, v: Value): void {
  if (key === '__proto__') {
    Object.defineProperty(m, key, { value: v, enumerable: true, writable: true, configurable: true });
  } else {
    m[key] = v;
  }
}

/** Number of own keys of a map (no allocation for the common small case beyond `Object.keys`). */
export function mapSize(m: ValueMap): number {
  let n = 0;
  for (const k in m) if (hasOwn.call(m, k)) n++;
  return n;
}

/** True for `null`, `[]` and `{}`: "empty promotes to leaf" (03 §4). */
export function isNullOrEmpty(v: Value | undefined): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object' && v !== undefined) return mapSize(v as ValueMap) === 0;
  return false;
}
