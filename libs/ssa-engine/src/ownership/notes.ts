import type { ManagerRef } from './snapshot.js';

/**
 * Stable codes of the things a snapshot diff flags (07 §2, §5): either a fact that needs a word of
 * explanation, or a question the two snapshots cannot answer.
 */
export type NoteCode =
  /** No earlier snapshot: every owned path is reported `acquired`; history before is unknown. */
  | 'first-observation'
  /** An entry disappeared because the write took, removed or pruned everything it owned. */
  | 'entry-emptied'
  /** An Update entry disappeared and its paths now belong to the `ancient-changes` bucket (cap of 10). */
  | 'entry-merged-into-ancient-changes'
  /** kubectl's CSA→SSA migration folded a client-side-apply entry into the `kubectl` Apply entry. */
  | 'entry-folded-by-csa-migration'
  /**
   * An entry disappeared and the snapshots cannot tell why: emptied by releases, its apiVersion is
   * no longer served, or managedFields were edited (07 §5).
   */
  | 'entry-disappeared'
  /** All entries disappeared: managedFields were reset (`[{}]`); the object is untracked until the next apply. */
  | 'managed-fields-reset'
  /** The later object carries no managedFields at all (untracked object). */
  | 'untracked-object'
  /** `before-first-apply` appeared: first apply on an untracked object; it owns what existed then. */
  | 'before-first-apply-appeared'
  /** An entry without `time`: created by a no-op apply or through the scale subresource. */
  | 'entry-without-time'
  /** The object changed but no entry's time moved: admission, strategy, an Update that only removed, or a reset. */
  | 'object-changed-without-writer'
  /** Only managedFields changed (same object): sharing/releasing apply, managedFields edit, CSA migration. */
  | 'ownership-only-change'
  /** Several entries changed time (lost watch events, or writes within one observation gap). */
  | 'writer-ambiguous'
  /** An Apply entry's apiVersion changed: its fields were re-expressed in the new version; paths may differ only by version. */
  | 'apply-version-changed'
  /**
   * An entry is recorded at another API version than the observed object: its paths are that
   * version's and were read through the conversion (`converted`) or could not be (kept, not
   * interpreted: the engine cannot convert that version, or the server no longer serves it).
   */
  | 'entry-at-other-version'
  /** A `kubectl` Apply took fields while the last-applied annotation matched the old values: maybe the automatic CSA upgrade force, not `--force-conflicts`. */
  | 'possible-last-applied-auto-force'
  /** Ownership moved without the value changing: a managedFields edit, CSA migration or scale re-mapping. */
  | 'ownership-moved-without-change'
  /** An Update identity gained a path whose value did not change (07 §2: new parent, managedFields edit, migration, scale, cap). */
  | 'update-gained-unchanged'
  /** A field lost its last owner but is still in the object (re-defaulted, pruning skipped, admission). */
  | 'orphaned'
  /** A field changed value while no identity gained it: a writer that is not tracked (admission, reset fields). */
  | 'untracked-change'
  /** Force is inferred from the snapshots (an Apply gained a changed field another identity lost); the request is not visible. */
  | 'force-inferred';

/** A flag on a snapshot diff or an explanation. */
export interface Note {
  readonly code: NoteCode;
  readonly message: string;
  readonly managers: readonly ManagerRef[];
  /** Human-form paths concerned, if any. */
  readonly paths: readonly string[];
}

/** Builds a note. */
export function note(code: NoteCode, message: string, managers: readonly ManagerRef[] = [], paths: readonly string[] = []): Note {
  return { code, message, managers, paths };
}
