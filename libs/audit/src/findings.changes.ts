import type { ObjectOwnershipState } from './object-ownership.projection.js';
import { fieldFindings, type FieldFinding } from './findings.read-model.js';

/**
 * What the stored findings of one object need after a projection batch: all of its findings now
 * (written over the stored ones), or none (its row deleted).
 */
export interface FindingsChange {
  readonly objectId: string;
  readonly cluster: string;
  readonly findings: readonly FieldFinding[];
}

/**
 * The findings of an object that went from `before` to `after`: `null` when they stay the same
 * (its owned fields, marks and deletion the same objects, or findings equal as JSON), else all of them.
 */
export function findingsChange(before: ObjectOwnershipState | undefined, after: ObjectOwnershipState): FindingsChange | null {
  if (before !== undefined && before.fields === after.fields && before.marks === after.marks && before.deleted === after.deleted) return null;
  const next = fieldFindings(after);
  const previous = before === undefined ? [] : fieldFindings(before);
  if (JSON.stringify(next) === JSON.stringify(previous)) return null;
  return { objectId: after.objectId, cluster: after.cluster, findings: next };
}
