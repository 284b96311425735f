import type { Identity } from '../api/api-types';

/** A manager identity (manager, operation, subresource) as a key: the timeline's lanes, lists of owners. */
export function identityKey(o: Pick<Identity, 'manager' | 'operation' | 'subresource'>): string {
  return `${o.manager}\u0000${o.operation}\u0000${o.subresource ?? ''}`;
}

/** A managedFields entry as a key: its identity and apiVersion (an Update entry is one per apiVersion). */
export function entryKey(o: Identity): string {
  return `${identityKey(o)}\u0000${o.apiVersion}`;
}
