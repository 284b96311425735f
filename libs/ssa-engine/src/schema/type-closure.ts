import type { SchemaDocument, TypeDef, TypeRef } from './schema.js';

/**
 * The named types `root` depends on in `doc`, itself included, in document order; the two untyped
 * built-ins (`__…`) are left out (every schema has them). Names the document does not define are
 * skipped. Two documents whose closures of a type are equal give that type the same structure.
 */
export function typeClosure(doc: SchemaDocument, root: string): TypeDef[] {
  const byName = new Map(doc.types.map((t) => [t.name, t]));
  const seen = new Set<string>();
  const visitRef = (ref: TypeRef | undefined): void => {
    if (!ref) return;
    if (ref.namedType !== undefined) visit(ref.namedType);
    visitRef(ref.list?.elementType);
    visitRef(ref.map?.elementType);
    for (const f of ref.map?.fields ?? []) visitRef(f.type);
  };
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const def = byName.get(name);
    if (def) visitRef({ ...def, namedType: undefined });
  };
  visit(root);
  return doc.types.filter((t) => seen.has(t.name) && !t.name.startsWith('__'));
}
