// The shapes of the API's answers the UI reads (README, "REST API").

// The libs' own unions (types: nothing of the engine or the audit lib enters the bundle).
import type { TransitionType } from '../../../../libs/ssa-engine/src/ownership/diff-snapshots';
import type { FindingType } from '../../../../libs/audit/src/findings.read-model';
import type { SchemaUsed } from '../../../../libs/audit/src/schema-resolver.port';
import type { AnswerNote } from '../../../../libs/audit/src/other-version.notes';

export type { TransitionType, SchemaUsed };

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface TrackedObject {
  id: string;
  cluster: string;
  uid: string;
  group: string;
  version: string;
  kind: string;
  namespace: string;
  name: string;
  deleted?: boolean;
  lastSeq?: string;
  lastAt?: string;
}

export interface Identity {
  manager: string;
  operation: string;
  subresource: string | null;
  apiVersion: string;
}

export interface Owner extends Identity {
  since?: string;
  sinceSeq?: string;
  sinceFirstObservation?: boolean;
  via?: string;
}

export interface AsOf {
  seq: string;
  at: string;
}

export interface FieldNode {
  segment: string;
  path: string;
  fieldsV1Path: string;
  owned: boolean;
  owners: Owner[];
  children: FieldNode[];
  /** A leaf's value in the object (asked with ?values=true); no key where the object has none. */
  value?: unknown;
}

export interface Ownership {
  object: TrackedObject;
  asOf: AsOf;
  schema: SchemaUsed;
  tree: FieldNode;
}

export interface Transition extends Identity {
  at: string;
  seq: string;
  type: TransitionType;
  path?: string;
  fieldsV1Path?: string;
  owners: Identity[];
  from: Identity[];
  valueChanged: boolean;
  reconstructed: boolean;
  notes: string[];
}

export interface FieldHistory {
  path: string;
  fieldsV1Path: string;
  transitions: Transition[];
  values: { at: string; seq: string; present: boolean; value?: unknown; reconstructed: boolean }[];
}

export interface Remedy {
  kind: string;
  summary: string;
  command: string | null;
  commands: string[];
  patch: unknown[] | null;
  warning: string | null;
}

export interface Explanation {
  path: string;
  present: boolean;
  cause: string;
  causes: string[];
  message: string;
  releasedBy: (Identity & { at: string | null; seq: string | null }) | null;
  remainingOwners: Owner[];
  remedies: Remedy[];
  /** The engine's and the audit lib's notes: a stable code and a sentence. */
  notes: AnswerNote[];
  objectDeleted: boolean;
}

export interface Finding {
  type: FindingType;
  objectId: string;
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
  path: string;
  managers: Identity[];
  since: string;
  sinceSeq: string;
  message: string;
}

export interface ManagerSummary {
  manager: string;
  identities: Omit<Identity, 'manager'>[];
  objectCount: number;
  fieldCount: number;
}

export interface ManagerFields {
  object: TrackedObject;
  fields: (Omit<Identity, 'manager'> & { path: string; since: string; sinceSeq: string })[];
}

export interface SimulateAnswer {
  objectId: string | null;
  conflicts: (Identity & { path: string })[];
  message: string | null;
  /** What kubectl writes to stderr for the conflict, byte for byte (null when there is none). */
  kubectlStderr: string | null;
  pruned: string[];
  kept: { path: string; owners: Identity[] }[];
  result: { object: unknown; managedFields: unknown[] } | null;
}

export interface StoredEvent {
  seq: string;
  objectId: string;
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
  type: string;
  observedAt: string;
  cursor: string;
}
