import type { FieldNode, Identity } from '../api/api-types';
import { entryKey } from '../managers/identity-key';

/** Today's managedFields as the tree tells them: each entry (its {@link entryKey}) with the fields it owns. */
export function fieldsByIdentity(tree: FieldNode): { key: string; identity: Identity; paths: string[] }[] {
  const out = new Map<string, { key: string; identity: Identity; paths: string[] }>();
  const walk = (n: FieldNode) => {
    for (const o of n.owners) {
      const key = entryKey(o);
      const entry = out.get(key) ?? { key, identity: { manager: o.manager, operation: o.operation, subresource: o.subresource, apiVersion: o.apiVersion }, paths: [] };
      entry.paths.push(n.path);
      out.set(key, entry);
    }
    n.children.forEach(walk);
  };
  walk(tree);
  return [...out.values()];
}
