// The ssa-audit REST API answers the plugin reads, written out as the service's response schemas
// (apps/api/src/*.dto.ts) give them: apps never import each other, not even types. Keep the two in
// step when an answer changes (README: REST API). Where the domain's own type is the wire shape, it
// is used as is (type-only: nothing of libs/audit or the engine is loaded for it).
import type { FindingType, ObjectListItem, Operation, SchemaUsed } from '../../../libs/audit/src/index.js';
import type { TransitionType } from '../../../libs/ssa-engine/src/index.js';

/** A manager identity (an entry of managedFields without its fields). */
export interface ManagerRef {
  readonly manager: string;
  readonly operation: Operation;
  readonly subresource?: string;
  readonly apiVersion?: string;
}

/** An owner of a field. */
export interface Owner {
  readonly manager: string;
  readonly operation: Operation;
  readonly subresource: string;
  readonly apiVersion: string;
  readonly since: string;
  readonly sinceSeq: string;
  readonly sinceFirstObservation: boolean;
}

export interface AsOf {
  readonly seq: string;
  readonly at: string;
}

interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

export type ObjectPage = Page<ObjectListItem>;

export interface FieldAnswer {
  readonly path: string;
  readonly fieldsV1Path: string;
  readonly present: boolean;
  readonly value: unknown;
  readonly owners: Owner[];
  readonly effectiveOwners: (Owner & { readonly via: string })[];
  readonly deleted: boolean;
  readonly asOf: AsOf;
  readonly schema: SchemaUsed;
  readonly notes: { readonly code: string; readonly message: string }[];
}

export interface OwnershipNode {
  readonly segment: string;
  readonly path: string;
  readonly fieldsV1Path: string;
  readonly owned: boolean;
  readonly owners: Owner[];
  readonly children: OwnershipNode[];
  readonly value?: unknown;
}

export interface OwnershipAnswer {
  readonly object: ObjectListItem;
  readonly asOf: AsOf;
  readonly schema: SchemaUsed;
  readonly tree: OwnershipNode;
}

/** `GET /v1/objects/{id}/fields/history` (`manager` and `operation` are null where the writer is unknown: a deleted object's `removed`). */
export interface HistoryAnswer {
  readonly path: string;
  readonly fieldsV1Path: string;
  readonly transitions: {
    readonly at: string;
    readonly seq: string;
    readonly type: TransitionType;
    readonly manager: string | null;
    readonly operation: Operation | null;
    readonly subresource: string | null;
    readonly apiVersion: string | null;
    readonly owners: ManagerRef[];
    readonly from: ManagerRef[];
    readonly valueChanged: boolean;
    readonly reconstructed: boolean;
    readonly notes: string[];
  }[];
  readonly values: { readonly at: string; readonly seq: string; readonly present: boolean; readonly value: unknown; readonly reconstructed: boolean }[];
  readonly schema: SchemaUsed;
}

export interface Explanation {
  readonly path: string;
  readonly fieldsV1Path: string;
  readonly present: boolean;
  readonly cause: string;
  readonly causes: string[];
  readonly message: string;
  readonly releasedBy: { readonly manager: string; readonly operation: Operation; readonly subresource: string | null; readonly at: string | null; readonly seq: string | null } | null;
  readonly remainingOwners: {
    readonly manager: string;
    readonly operation: Operation;
    readonly subresource: string;
    readonly apiVersion: string | null;
    readonly since: string | null;
    readonly sinceSeq: string | null;
    readonly via: string;
    readonly index: number;
  }[];
  readonly remedies: {
    readonly kind: string;
    readonly summary: string;
    readonly command: string | null;
    readonly commands: string[];
    readonly patch: Record<string, unknown>[] | null;
    readonly warning: string | null;
  }[];
  readonly notes: { readonly code: string; readonly message: string }[];
  readonly objectDeleted: boolean;
  readonly schema: SchemaUsed;
}

export interface Finding {
  readonly type: FindingType;
  readonly objectId: string;
  readonly cluster: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly namespace: string | null;
  readonly name: string;
  readonly path: string;
  readonly fieldsV1Path: string;
  readonly managers: ManagerRef[];
  readonly owners: Owner[];
  readonly since: string;
  readonly sinceSeq: string;
  readonly message: string;
}

export type FindingPage = Page<Finding>;

export interface SimulateAnswer {
  readonly objectId: string | null;
  readonly conflicts: { readonly manager: string; readonly path: string; readonly operation: Operation; readonly subresource: string | null; readonly apiVersion: string | null }[];
  readonly message: string | null;
  readonly kubectlStderr: string | null;
  readonly pruned: string[];
  readonly kept: { readonly path: string; readonly owners: ManagerRef[] }[];
  readonly result: { readonly object: Record<string, unknown>; readonly managedFields: Record<string, unknown>[] } | null;
  readonly schema: SchemaUsed;
  readonly notes: { readonly code: string; readonly message: string }[];
}
