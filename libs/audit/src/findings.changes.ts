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
 * The findings of an object from the event `seq` (observed `at`) on, until its next findings version
 * (what `GET /v1/findings?at=` reads); empty when the object has none from then on.
 */
export interface FindingsVersion extends FindingsChange {
  readonly seq: string;
  readonly at: string;
}

/**
 * Follows the findings of a batch's objects event by event: a version wherever they change, and for
 * the stored list, each object's findings after the batch. An event that leaves the owned fields,
 * marks and deletion as the same objects cannot change them; otherwise they are compared as JSON.
 */
export class FindingsTimeline {
  /** Each object's findings after the last event stepped (computed only once some event could change them). */
  private readonly current = new Map<string, readonly FieldFinding[]>();
  readonly versions: FindingsVersion[] = [];

  /** One event took the object from `before` (`undefined`: its first) to `after`. */
  step(before: ObjectOwnershipState | undefined, after: ObjectOwnershipState): void {
    if (before === after) return;
    if (before !== undefined && before.fields === after.fields && before.marks === after.marks && before.deleted === after.deleted) return;
    const previous = this.current.get(after.objectId) ?? (before === undefined ? [] : fieldFindings(before));
    const next = fieldFindings(after);
    if (JSON.stringify(next) === JSON.stringify(previous)) {
      this.current.set(after.objectId, previous);
      return;
    }
    this.current.set(after.objectId, next);
    this.versions.push({ objectId: after.objectId, cluster: after.cluster, findings: next, seq: after.lastSeq, at: after.lastAt });
  }

  /** The objects whose findings changed in the batch, each with all of its findings after it (its last version). */
  changes(): FindingsChange[] {
    const last = new Map<string, FindingsChange>();
    for (const { seq: _seq, at: _at, ...change } of this.versions) last.set(change.objectId, change);
    return [...last.values()];
  }
}
