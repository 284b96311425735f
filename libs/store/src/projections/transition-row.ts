import { storableStandIn, storableText, type FieldTransition, type ManagerRef } from '../../../audit/src/index.js';

/** The part of a transition not kept in its own columns of `field_transitions` (the `transition` json). */
type TransitionRest = Pick<FieldTransition, 'apiVersion' | 'from' | 'owners' | 'valueChanged' | 'reconstructed' | 'notes'>;

/**
 * The `transition` json as stored: a key whose value is the usual one is left out (`from` and
 * `notes` empty, `reconstructed` false, `owners` exactly the actor alone, which most transitions
 * are: a manager that starts owning a field nobody else owns). Rows written before hold every key.
 */
type StoredRest = Pick<TransitionRest, 'apiVersion' | 'valueChanged'> & Partial<TransitionRest> & { exact?: ExactTexts };

/**
 * The texts a transition keeps in its own columns. Postgres `text` cannot hold U+0000 or a lone
 * surrogate (audit `storableText`), which a path (a custom resource's free-form map key) or a manager
 * (any client's name) may hold: such a transition keeps them exactly in its json (`exact`, where the
 * escape is kept as written), and its columns hold stand-ins (audit `storableStandIn`; a
 * `fields_v1_path` holding one also prefixed {@link NUL_PATH}, a clean one kept, so that the path's
 * transitions by such a manager are found).
 */
type ExactTexts = Pick<FieldTransition, 'path' | 'fieldsV1Path' | 'manager' | 'operation' | 'subresource'>;

/**
 * The prefix of a stand-in `fields_v1_path`: no FieldsV1 path starts so (each element starts `f:`,
 * `k:`, `v:` or `i:`), so a path's transitions, read by that column, never include such a row.
 * (A path holding U+0000 or a lone surrogate cannot be asked about: `resolvePath` refuses it.)
 */
const NUL_PATH = 'nul:';

/** SQL: a {@link TransitionRow} of `field_transitions t`. */
export const SELECT_TRANSITION = `SELECT t.object_id, t.seq::text AS seq, t.ordinal, t.at, t.type, t.path, t.fields_v1_path, t.manager, t.operation, t.subresource, t.transition
  FROM field_transitions t`;

/** A `field_transitions` row as read back (`seq` as text, `at` as a Date). */
export interface TransitionRow {
  object_id: string; seq: string; ordinal: number; at: Date; type: FieldTransition['type']; path: string; fields_v1_path: string;
  manager: string | null; operation: FieldTransition['operation']; subresource: string | null; transition: StoredRest;
}

/** The acting manager as an owner (`ManagerRef` key order), where the transition names one. */
function actor(t: Pick<FieldTransition, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): ManagerRef | null {
  if (t.manager === null || t.operation === null || t.apiVersion === null || t.subresource === null) return null;
  return { manager: t.manager, operation: t.operation, apiVersion: t.apiVersion, subresource: t.subresource };
}

/** Whether the owners are the actor alone, as JSON (so reading rebuilds them byte for byte). */
function ownedByActorAlone(t: FieldTransition): boolean {
  const a = actor(t);
  return a !== null && t.owners.length === 1 && JSON.stringify(t.owners[0]) === JSON.stringify(a);
}

/**
 * The row of one transition, for `json_to_recordset`: what has a column is stored there only (path
 * forms, manager, …: every first observation writes a transition per owned path, so rows count).
 */
export function transitionRow(t: FieldTransition, ordinal: number): Record<string, unknown> {
  const rest: StoredRest = {
    apiVersion: t.apiVersion,
    ...(t.from.length > 0 && { from: t.from }),
    ...(!ownedByActorAlone(t) && { owners: t.owners }),
    valueChanged: t.valueChanged,
    ...(t.reconstructed && { reconstructed: true }),
    ...(t.notes.length > 0 && { notes: t.notes }),
  };
  const texts: ExactTexts = { path: t.path, fieldsV1Path: t.fieldsV1Path, manager: t.manager, operation: t.operation, subresource: t.subresource };
  if (!Object.values(texts).every(storableText)) {
    // Only a path that holds one gets the prefix: a clean path's transitions by such a manager are found by path.
    const nulPath = !storableText(t.path) || !storableText(t.fieldsV1Path);
    return {
      object_id: t.objectId, seq: t.seq, ordinal, at: t.at, type: t.type, path: storableStandIn(t.path),
      fields_v1_path: nulPath ? NUL_PATH + storableStandIn(t.fieldsV1Path) : t.fieldsV1Path,
      manager: storableStandIn(t.manager), operation: storableStandIn(t.operation), subresource: storableStandIn(t.subresource), transition: { ...rest, exact: texts },
    };
  }
  return {
    object_id: t.objectId, seq: t.seq, ordinal, at: t.at, type: t.type, path: t.path, fields_v1_path: t.fieldsV1Path,
    manager: t.manager, operation: t.operation, subresource: t.subresource, transition: rest,
  };
}

/** The transition of a row (keys in `FieldTransition` order; `at` as the projector wrote it, an ISO time). */
export function transitionFromRow(r: TransitionRow): FieldTransition {
  const rest = r.transition;
  const x: ExactTexts = rest.exact ?? { path: r.path, fieldsV1Path: r.fields_v1_path, manager: r.manager, operation: r.operation, subresource: r.subresource };
  const owner = actor({ manager: x.manager, operation: x.operation, subresource: x.subresource, apiVersion: rest.apiVersion });
  // Owners are left out only where the row names the actor: one that names none cannot have been written so.
  if (rest.owners === undefined && owner === null) throw new Error(`field_transitions row ${r.object_id}/${r.seq}/${r.ordinal} has no owners and names no actor`);
  return {
    seq: r.seq, at: r.at.toISOString(), objectId: r.object_id, type: r.type, path: x.path, fieldsV1Path: x.fieldsV1Path,
    manager: x.manager, operation: x.operation, subresource: x.subresource, apiVersion: rest.apiVersion,
    from: rest.from ?? [], owners: rest.owners ?? [owner!], valueChanged: rest.valueChanged, reconstructed: rest.reconstructed ?? false, notes: rest.notes ?? [],
  };
}
