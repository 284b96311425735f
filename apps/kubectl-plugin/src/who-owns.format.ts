import { formatLocalTime } from './local-time.js';
import { ownerLabel, valueLabel } from './owner-label.js';
import type { Paint } from './paint.js';
import type { FieldAnswer, Owner, OwnershipNode } from './service-api.types.js';

const owners = (os: readonly Owner[], p: Paint) => os.map((o) => `${ownerLabel(o, p)}${o.since ? p.dim(` since ${formatLocalTime(o.since)}`) : ''}`).join(', ');

/**
 * Who owns a field: the object, the field with its value and owners, and below it the tree of the
 * owned fields under it (each with its owners), as `tree` draws directories; then the answer's notes
 * (owners recorded at another API version) and a warning where no schema was known for the kind.
 */
export function formatWhoOwns(objectLabel: string, field: FieldAnswer, subtree: OwnershipNode | undefined, p: Paint): string {
  const lines = [`${p.bold(objectLabel)}${p.dim(`  as of ${formatLocalTime(field.asOf.at)} (event ${field.asOf.seq})`)}`];
  // A map or list with owned fields under it: the tree below shows them, not the whole value.
  const nested = subtree !== undefined && subtree.children.length > 0 && typeof field.value === 'object' && field.value !== null;
  const value = nested ? (Array.isArray(field.value) ? '[…]' : '{…}') : valueLabel(field.present, field.value);
  const head = `${p.bold(field.path)} = ${value}`;
  lines.push(field.owners.length > 0 ? `${head}  ${owners(field.owners, p)}` : `${head}  ${p.warn('owned by nobody')}`);
  const walk = (nodes: readonly OwnershipNode[], indent: string) => {
    nodes.forEach((n, i) => {
      const last = i === nodes.length - 1;
      const own = n.owners.length > 0 ? `  ${owners(n.owners, p)}` : '';
      lines.push(`${indent}${last ? '└── ' : '├── '}${n.segment}${own}`);
      walk(n.children, indent + (last ? '    ' : '│   '));
    });
  };
  if (subtree) walk(subtree.children, '');
  for (const n of field.notes) lines.push(p.dim(`note: ${n.message}`));
  // Without a schema every list is one field: its owners are the whole list's, not an item's.
  if (field.schema.source === 'deduced') lines.push(p.warn('schema: none stored for this kind, deduced from the values (each list owned as a whole)'));
  return `${lines.join('\n')}\n`;
}

/** The node of `tree` at `path` (kubectl form, as the service normalised it). */
export function findNode(tree: OwnershipNode, path: string): OwnershipNode | undefined {
  if (tree.path === path) return tree;
  for (const c of tree.children) {
    if (path.startsWith(c.path)) {
      const found = findNode(c, path);
      if (found) return found;
    }
  }
  return undefined;
}
