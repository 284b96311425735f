import type { FieldNode, Identity } from '../api/api-types';

/** Today's managedFields as the tree tells them: each identity with the fields it owns. */
export function fieldsByIdentity(tree: FieldNode): { identity: Identity; paths: string[] }[] {
  const out = new Map<string, { identity: Identity; paths: string[] }>();
  const walk = (n: FieldNode) => {
    for (const o of n.owners) {
      const key = `${o.manager}\u0000${o.operation}\u0000${o.subresource ?? ''}\u0000${o.apiVersion}`;
      const entry = out.get(key) ?? { identity: { manager: o.manager, operation: o.operation, subresource: o.subresource, apiVersion: o.apiVersion }, paths: [] };
      entry.paths.push(n.path);
      out.set(key, entry);
    }
    n.children.forEach(walk);
  };
  walk(tree);
  return [...out.values()];
}
