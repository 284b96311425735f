import type { FieldTransition } from '../../../audit/src/index.js';

/** The part of a transition not kept in its own columns of `field_transitions` (the `transition` json). */
type TransitionRest = Pick<FieldTransition, 'apiVersion' | 'from' | 'owners' | 'valueChanged' | 'reconstructed' | 'notes'>;

/** A `field_transitions` row as read back (`seq` as text, `at` as a Date). */
export interface TransitionRow {
  object_id: string; seq: string; ordinal: number; at: Date; type: FieldTransition['type']; path: string; fields_v1_path: string;
  manager: string | null; operation: FieldTransition['operation']; subresource: string | null; transition: TransitionRest;
}

/**
 * The row of one transition, for `json_to_recordset`: what has a column is stored there only (path
 * forms, manager, …: every first observation writes a transition per owned path, so rows count).
 */
export function transitionRow(t: FieldTransition, ordinal: number): Record<string, unknown> {
  const rest: TransitionRest = { apiVersion: t.apiVersion, from: t.from, owners: t.owners, valueChanged: t.valueChanged, reconstructed: t.reconstructed, notes: t.notes };
  return {
    object_id: t.objectId, seq: t.seq, ordinal, at: t.at, type: t.type, path: t.path, fields_v1_path: t.fieldsV1Path,
    manager: t.manager, operation: t.operation, subresource: t.subresource, transition: rest,
  };
}

/** The transition of a row (keys in `FieldTransition` order; `at` as the projector wrote it, an ISO time). */
export function transitionFromRow(r: TransitionRow): FieldTransition {
  const rest = r.transition;
  return {
    seq: r.seq, at: r.at.toISOString(), objectId: r.object_id, type: r.type, path: r.path, fieldsV1Path: r.fields_v1_path,
    manager: r.manager, operation: r.operation, subresource: r.subresource, apiVersion: rest.apiVersion,
    from: rest.from, owners: rest.owners, valueChanged: rest.valueChanged, reconstructed: rest.reconstructed, notes: rest.notes,
  };
}
