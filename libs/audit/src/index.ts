/**
 * audit: the ownership domain of ssa-audit. Pure functions over observed events and projection
 * states, on top of the SSA engine (see README.md beside this folder). No framework, no I/O.
 */

// Errors
export { AuditError, type AuditErrorCode } from './audit.error.js';
export { AuthError, type AuthErrorCode } from './auth.error.js';

// Who asks
export { ANONYMOUS_CALLER, TOKEN_REVIEWER, type Caller, type TokenReview, type TokenReviewer } from './caller.types.js';
export { parseBearerToken } from './parse-bearer-token.js';
export {
  ACCESS_REVIEWER,
  CLUSTER_WIDE_ACCESS,
  REPLAY_ACCESS,
  REPLAY_READ_ACCESS,
  SERVICE_API_GROUP,
  objectAccess,
  scopeAccess,
  type AccessReviewer,
  type AccessScope,
  type ObjectAccessIdentity,
  type ResourceAccess,
} from './access-review.port.js';
export { scopedView, type ScopedView } from './scoped-view.js';

// Input
export type { ObservedEvent, EventFacts, WatchType, EventSource, Seq, Since, FieldOwner, ManagerRef, Operation } from './observed-event.types.js';
export { valueAt } from './value-at.util.js';
export { seqString, compareSeq, isRfc3339, parseAt, sortEvents, eventsUpTo, type AsOf } from './seq.util.js';
export {
  defaultSchemaResolver,
  apiVersionOf,
  bundledChoice,
  schemaUsed,
  recordedSchema,
  DEDUCED_CHOICE,
  type SchemaResolver,
  type SchemaChoice,
  type SchemaSource,
  type SchemaUsed,
} from './schema-resolver.port.js';
export { SchemaCatalog, type ClusterSchemaDocument, type ConvertedDocumentCache } from './schema-catalog.js';
export { staleSchemaGroups, foldedWithChosenSchema, type FoldedKind, type ProjectedSchemaGroup } from './schema-staleness.js';
export { otherVersionOwnerNotes, type AnswerNote } from './other-version.notes.js';
export { resolvePath, resolveEventsPath, eventsSchema, type ResolvedPath } from './field-path.util.js';

// Projection
export {
  evolveObjectOwnership,
  foldObjectOwnership,
  identityOf,
  transitionManager,
  WATCH_GAP_NOTE,
  type ObjectOwnershipState,
  type OwnedField,
  type FieldMark,
  type FieldMarkKind,
  type FieldTransition,
  type OwnershipEvolution,
  type OwnershipReplay,
} from './object-ownership.projection.js';

export { decideAppend, nextTip, type AppendDecision, type ObjectTip, type ObservationDigest } from './append-decision.js';
export {
  identityKey,
  managerIndexChange,
  managerIndexRows,
  ManagerIndexTimeline,
  type ManagerIdentity,
  type ManagerIndexChange,
  type ManagerIndexRow,
  type ManagerIndexVersion,
} from './manager-index.changes.js';
export { baselineTransitions, transitionsToStore, type BaselineEvent } from './baseline-transitions.js';
export { storableText, storableStandIn } from './storable-text.js';
export { ownershipVersionOf, ownershipSnapshotOf, snapshotFromVersion, type OwnershipVersion, type OwnershipSnapshot } from './ownership-version.js';

export {
  encodeOwnedFields,
  decodeOwnedFields,
  encodeOwnershipState,
  decodeOwnershipState,
  type EncodedOwnedFields,
  type EncodedOwnershipState,
} from './owned-fields.codec.js';

// Read models
export {
  ownershipTree,
  fieldOwners,
  ownerSince,
  type OwnershipNode,
  type FieldOwnersView,
  type OwnerView,
  type EffectiveOwnerView,
} from './field-owners.read-model.js';
export {
  fieldHistory,
  fieldHistoryOfValues,
  type EventValue,
  objectTransitions,
  replayEvents,
  type PlacedTransition,
  type FieldHistoryView,
  type FieldHistoryTransition,
  type FieldValueChange,
} from './field-history.read-model.js';
export { explainField, explainChainStart, explainStepSeq, explainFieldOfProjected, type FieldExplanationView, type ReleasedBy, type RemainingOwner, type RemedyView } from './explain-field.read-model.js';
export {
  managerIndex,
  ManagerTotals,
  sortedIdentities,
  managerFields,
  type ManagerSummary,
  type ManagerObjectFields,
  type ManagedFieldView,
  type ManagerFieldsFilter,
} from './manager-index.read-model.js';
export {
  listObjects,
  objectListItem,
  objectRef,
  type ObjectRef,
  type ObjectOwnedFields,
  type ObjectListKey,
  objectListKey,
  compareObjectListKeys,
  matchesObjectFilter,
  managerOwnsAField,
  type ObjectListItem,
  type ObjectFilter,
} from './objects.read-model.js';
export { findings, compareFindings, fieldFindings, FINDING_TYPES, type FieldFinding, type Finding, type FindingType, type FindingsOptions } from './findings.read-model.js';
export { FindingsTimeline, type FindingsChange, type FindingsVersion } from './findings.changes.js';
export { keepsTimeOrder } from './time-order.js';

// Use cases
export {
  ProjectEventsUseCase,
  type ProjectEventsCommand,
  type ProjectEventsResult,
  type ProjectedBatch,
  type OwnershipProjectionStore,
} from './project-events.use-case.js';
export { ProjectionConflictError } from './projection-conflict.error.js';
export type { EventPosition, LoggedEvent, ObjectRewrite, ProjectionLog, ProjectionTables, RewritePages, SchemaCatalogSource, SeqRange } from './projection-log.port.js';
export { OwnershipProjector, type CatchUpOptions, type CatchUpResult, type ReplayProgress, type ReplayScope } from './ownership-projector.use-case.js';
export { foldsAtAppend, stampOf, type ProjectedStamp } from './append-time-projection.js';
export {
  AppendTimeProjection,
  FoldAtAppendError,
  type AppendTimeProjectionResult,
  type AppendTransactionTables,
} from './append-time-projection.use-case.js';
export {
  MAX_MANIFEST_DEPTH,
  simulateApply,
  type SimulateApplyCommand,
  type SimulatedApply,
  type SimulatedConflict,
  type SurvivingField,
} from './simulate-apply.use-case.js';
export { kubectlConflictStderr } from './kubectl-apply-output.js';
