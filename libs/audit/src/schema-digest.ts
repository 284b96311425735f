import type { TypeDef, TypeRef } from '../../ssa-engine/src/index.js';

/**
 * A short digest of a type closure (the named types a kind's type depends on), with every element
 * relationship spelled out (a map is separable and a list atomic unless they say otherwise): two
 * 32-bit multiplicative hashes over its JSON, as 16 hex digits. It tells schemas apart for
 * re-projection, not for security.
 */
export function schemaDigest(closure: readonly TypeDef[]): string {
  const text = JSON.stringify(closure.map((t) => ({ name: t.name, ...explicit(t) })));
  let a = 0x811c9dc5;
  let b = 0x2545f491;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** The atom with default element relationships written out (`granular` and empty mean separable). */
function explicit(t: TypeRef): TypeRef {
  const out: { -readonly [K in keyof TypeRef]: TypeRef[K] } = {};
  if (t.namedType !== undefined) out.namedType = t.namedType;
  if (t.elementRelationship !== undefined) out.elementRelationship = t.elementRelationship;
  if (t.scalar !== undefined) out.scalar = t.scalar;
  if (t.list) out.list = { elementType: explicit(t.list.elementType), elementRelationship: t.list.elementRelationship ?? 'atomic', keys: t.list.keys ?? [] };
  if (t.map) {
    const rel = t.map.elementRelationship === 'atomic' ? 'atomic' : 'separable';
    out.map = {
      fields: (t.map.fields ?? []).map((f) => (f.default === undefined ? { name: f.name, type: explicit(f.type) } : { name: f.name, type: explicit(f.type), default: f.default })),
      ...(t.map.elementType ? { elementType: explicit(t.map.elementType) } : {}),
      elementRelationship: rel,
    };
  }
  return out;
}
