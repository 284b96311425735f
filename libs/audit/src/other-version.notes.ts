import { otherVersionNotes, type ManagerRef, type ResolvedType } from '../../ssa-engine/src/index.js';
import { decodedSnapshot, identityOf } from './object-ownership.projection.js';

/** A note in an answer: a stable code and a sentence. */
export interface AnswerNote {
  readonly code: string;
  readonly message: string;
}

/**
 * The `entry-at-other-version` notes of `owners` (a path's owners in an answer) recorded at another
 * API version than the object's: their entries are kept, and the note says whether their paths are
 * read through the version conversion Kubernetes does (HPA autoscaling/v1 ↔ v2) or kept as
 * recorded (a version that cannot be converted here). Nothing is decoded unless such an owner exists.
 */
export function otherVersionOwnerNotes(
  object: unknown,
  type: ResolvedType,
  apiVersion: string,
  kind: string,
  owners: readonly Pick<ManagerRef, 'manager' | 'operation' | 'subresource' | 'apiVersion'>[],
): AnswerNote[] {
  const others = owners.filter((o) => o.apiVersion && o.apiVersion !== apiVersion);
  if (others.length === 0 || object === null || object === undefined) return [];
  const ids = new Set(others.map((o) => identityOf(o as ManagerRef)));
  return otherVersionNotes(decodedSnapshot(object, type), apiVersion, kind)
    .filter((n) => n.managers.some((m) => ids.has(identityOf(m))))
    .map((n) => ({ code: n.code, message: n.message }));
}
