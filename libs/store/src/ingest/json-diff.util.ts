/** An RFC 6902 operation as produced by {@link diffJson}. */
export type PatchOperation =
  | { readonly op: 'add' | 'replace'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string };

/** A key as a JSON pointer reference token (RFC 6901: `~` and `/` escaped). */
export const pointerToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A JSON patch (RFC 6902) turning `from` into `to`. Objects are compared key by key, arrays of equal
 * length element by element; an array whose length changed is replaced whole. Not minimal, but
 * linear in the size of the values (a general array diff is quadratic, and the benchmark showed it).
 */
export function diffJson(from: unknown, to: unknown, path = '', out: PatchOperation[] = []): PatchOperation[] {
  if (from === to) return out;
  if (isObject(from) && isObject(to)) {
    // A patch that adds or replaces a "__proto__" key would set a prototype when applied: replace the
    // whole object instead (its parsed value keeps the key as plain data).
    if (Object.hasOwn(from, '__proto__') || Object.hasOwn(to, '__proto__')) {
      out.push({ op: 'replace', path, value: to });
      return out;
    }
    // Own keys only: `in` would also see inherited names such as "constructor".
    for (const k of Object.keys(from)) if (!Object.hasOwn(to, k)) out.push({ op: 'remove', path: `${path}/${pointerToken(k)}` });
    for (const k of Object.keys(to)) {
      if (!Object.hasOwn(from, k)) out.push({ op: 'add', path: `${path}/${pointerToken(k)}`, value: to[k] });
      else diffJson(from[k], to[k], `${path}/${pointerToken(k)}`, out);
    }
    return out;
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length) {
    for (let i = 0; i < to.length; i++) diffJson(from[i], to[i], `${path}/${i}`, out);
    return out;
  }
  if (typeof from !== 'object' && typeof to !== 'object' && from === to) return out;
  out.push({ op: 'replace', path, value: to });
  return out;
}
