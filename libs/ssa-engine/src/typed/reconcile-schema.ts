import { FieldSet, type Path } from '../fieldpath/field-set.js';
import { FIELD, type PathElement } from '../fieldpath/path-element.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import { UNTYPED_DEDUCED } from '../schema/schema.js';

/**
 * Reconciles a manager's set with the current schema (03 §7): where the schema now declares a
 * node atomic but the set owns paths below it, the subtree becomes the single atomic path.
 * Returns the same set when nothing changes.
 */
export function reconcileWithSchema(set: FieldSet, type: ResolvedType): FieldSet {
  const toReplace: PathElement[][] = [];
  visit(set, type, [], false, toReplace);
  if (toReplace.length === 0) return set;
  const replaced = FieldSet.fromPaths(toReplace);
  return set.recursiveDifference(replaced).union(replaced);
}

function visit(set: FieldSet | undefined, t: ResolvedType, path: PathElement[], isAtomic: boolean, out: Path[]): void {
  const m = t.map;
  if (m) {
    if (m.fields.size === 0 && m.elementType?.name === UNTYPED_DEDUCED) return;
    if (!isAtomic && m.atomic) {
      if (set && !set.isEmpty) out.push([...path]);
      return;
    }
    if (set) children(set, path, out, (pe) => (pe.kind === FIELD ? (m.fields.get(pe.name)?.type ?? m.elementType) : undefined));
    return;
  }
  if (t.scalar) return;
  const l = t.list;
  if (l) {
    if (!isAtomic && l.atomic) {
      out.push([...path]);
      return;
    }
    if (set) children(set, path, out, () => l.elementType);
  }
}

function children(set: FieldSet, path: PathElement[], out: Path[], typeOf: (pe: PathElement) => ResolvedType | undefined): void {
  // Child nodes that are not members first, then members (with their child nodes, if any).
  set.children.forEach((pe, i) => {
    if (set.hasMember(pe)) return;
    const ct = typeOf(pe);
    if (!ct) return;
    path.push(pe);
    visit(set.childSets[i], ct, path, false, out);
    path.pop();
  });
  for (const pe of set.members) {
    const ct = typeOf(pe);
    if (!ct) continue;
    const sub = set.withPrefix(pe);
    path.push(pe);
    visit(sub.isEmpty ? undefined : sub, ct, path, sub.isEmpty, out);
    path.pop();
  }
}

