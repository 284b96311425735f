import type { Path } from '../fieldpath/field-set.js';
import { parsePath } from '../fieldpath/parse-path.js';
import { atomicAncestor, pathForms, pathKind, type PathForms, type PathKind } from './path-info.js';
import { isPresent, managerRef, readSnapshot, type DecodedSnapshot, type ManagerRef, type Snapshot } from './snapshot.js';

/** How an owner holds a path. */
export type OwnershipVia =
  /** The path itself is a member of the entry's set. */
  | 'self'
  /** Something below the path is owned (keeps a struct field alive, 07 §3). */
  | 'descendant'
  /** An atomic ancestor is owned: the path is owned and replaced as part of it. */
  | 'atomic-ancestor';

/** One owner of a path at one point in time. */
export interface Owner extends ManagerRef {
  /**
   * The entry's `time`: the last time this identity changed the object (whole seconds, UTC), or
   * `null` for entries without time (no-op apply, scale subresource). It is *not* when this path
   * was acquired: "owned since" is only derivable across a history of snapshots.
   */
  readonly time: string | null;
  /** Position of the entry in the observed `metadata.managedFields` list. */
  readonly index: number;
  readonly via: OwnershipVia;
}

/** The result of `ownersAt`. */
export interface OwnersAt extends PathForms {
  readonly present: boolean;
  readonly kind: PathKind;
  /** Identities that own the path itself. */
  readonly owners: readonly Owner[];
  /**
   * Identities that keep the path alive on pruning (07 §3): direct owners, owners of an atomic
   * ancestor, and for struct fields also owners of descendants. List items and map elements are
   * kept only by owners of the item itself.
   */
  readonly effectiveOwners: readonly Owner[];
}

/**
 * Who owns `path` in one snapshot (07 §3). `path` is a human-form or FieldsV1 dotted-form string
 * (see `parsePath`) or a parsed path. Throws `SsaEngineError` for malformed input.
 */
export function ownersAt(snapshot: Snapshot, path: string | Path): OwnersAt {
  const s = readSnapshot(snapshot);
  const p = typeof path === 'string' ? parsePath(path, s.type) : path;
  return ownersAtDecoded(s, p);
}

/** `ownersAt` on a decoded snapshot and a parsed path. */
export function ownersAtDecoded(s: DecodedSnapshot, p: Path): OwnersAt {
  const kind = pathKind(s.type, p);
  const anc = atomicAncestor(s.type, s.body, p);
  const owners: Owner[] = [];
  const effective: Owner[] = [];
  const entries = [...s.entries.values()].sort((x, y) => x.index - y.index);
  for (const e of entries) {
    const base = { ...managerRef(e), time: e.time ?? null, index: e.index };
    if (e.set.has(p)) {
      owners.push({ ...base, via: 'self' });
      effective.push({ ...base, via: 'self' });
    } else if (anc !== undefined && e.set.has(p.slice(0, anc))) {
      effective.push({ ...base, via: 'atomic-ancestor' });
    } else if ((kind === 'struct-field' || kind === 'root') && e.set.hasDescendantsOf(p)) {
      effective.push({ ...base, via: 'descendant' });
    }
  }
  return { ...pathForms(p), present: p.length === 0 || isPresent(s, p), kind, owners, effectiveOwners: effective };
}
