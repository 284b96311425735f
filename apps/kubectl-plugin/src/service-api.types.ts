/** The shapes of the ssa-audit REST API answers the plugin reads (README: REST API). */

export interface Owner {
  readonly manager: string;
  readonly operation: string;
  readonly subresource: string | null;
  readonly apiVersion: string | null;
  readonly since?: string;
}

/** Which object: the service tracks objects of several clusters. */
export interface ObjectCoordinates {
  readonly cluster: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly namespace: string | null;
  readonly name: string;
}

export interface ObjectItem extends ObjectCoordinates {
  readonly id: string;
  readonly deleted: boolean;
  readonly lastAt?: string;
}

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

export interface AsOf {
  readonly seq: string;
  readonly at: string;
}

export interface FieldAnswer {
  readonly path: string;
  readonly fieldsV1Path: string;
  readonly present: boolean;
  readonly value?: unknown;
  readonly owners: Owner[];
  readonly deleted?: boolean;
  readonly asOf?: AsOf | null;
}

export interface OwnershipNode {
  readonly segment: string;
  readonly path: string;
  readonly owned: boolean;
  readonly owners: Owner[];
  readonly children: OwnershipNode[];
}

export interface OwnershipAnswer {
  readonly tree: OwnershipNode;
  readonly asOf?: AsOf | null;
}

export interface Transition extends Owner {
  readonly at: string;
  readonly seq: string;
  readonly type: string;
  readonly owners?: Owner[];
  readonly notes?: string[];
  readonly reconstructed?: boolean;
}

export interface HistoryAnswer {
  readonly path: string;
  readonly transitions: Transition[];
  readonly values: { readonly at: string; readonly seq: string; readonly present: boolean; readonly value?: unknown }[];
}

export interface Remedy {
  readonly kind: string;
  readonly summary: string;
  readonly command: string | null;
  readonly commands: string[];
  readonly warning?: string | null;
}

export interface Explanation {
  readonly path: string;
  readonly present: boolean;
  readonly cause: string;
  readonly causes: string[];
  readonly message?: string;
  readonly releasedBy: (Owner & { readonly at?: string; readonly seq: string | null }) | null;
  readonly remainingOwners: Owner[];
  readonly remedies: Remedy[];
  readonly notes?: string[];
}

export interface Finding extends ObjectCoordinates {
  readonly type: string;
  readonly objectId: string;
  readonly path: string;
  readonly managers: Owner[];
  readonly since?: string;
  readonly message?: string;
}

export interface SimulateAnswer {
  readonly objectId: string | null;
  readonly conflicts: (Owner & { readonly path: string })[];
  readonly message: string | null;
  readonly pruned: string[];
  readonly kept: { readonly path: string; readonly owners: Owner[] }[];
  readonly result: unknown;
}
