/**
 * Ownership analysis (spec 07): what two consecutive observations of an object say about who owns
 * which field, why a field is still there or gone, and how to fix it. Plain-data results only.
 */
export { diffSnapshots, diffDecodedSnapshots, sameOwnership, type DiffOptions, type SnapshotDiff, type Transition, type TransitionType, type Writer, type WriterBasis } from './diff-snapshots.js';
export { explain, type CauseCode, type Explanation, type UnknownReason } from './explain.js';
export type { Note, NoteCode } from './notes.js';
export { ownersAt, type Owner, type OwnersAt, type OwnershipVia } from './owners-at.js';
export type { PathForms, PathKind } from './path-info.js';
export type { JsonPatchOp, Remedy, RemedyKind, RemedyTarget } from './remedies.js';
export { entriesAtOtherVersions, otherVersionNotes, type OtherVersionEntry, type OtherVersionReading } from './other-versions.js';
export { readSnapshot, type DecodedSnapshot, type IndexedEntry, type ManagerRef, type Snapshot } from './snapshot.js';
export { parsePath } from '../fieldpath/parse-path.js';
