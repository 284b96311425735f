import { parsePE, pathToHuman, type PathElement } from '../../ssa-engine/src/index.js';
import type { FieldOwner } from './observed-event.types.js';
import type { ObjectOwnershipState, OwnedField } from './object-ownership.projection.js';
import { recordedSchema, type SchemaUsed } from './schema-resolver.port.js';

/**
 * Owned fields as stored: each distinct owner once, each field as its FieldsV1 segments and the
 * indexes of its owners. A Deployment's fields take about a fifth of their plain JSON (the human
 * and dotted path forms are derived again on decoding, and a manager's `since` is usually shared by
 * all its fields), and every projection batch rewrites the states it touches.
 *
 * Written compact (every state and every ownership version holds one):
 * - an owner as the array `[manager, operation, apiVersion, subresource, since.seq, since.at,
 *   sinceFirstObservation]` (about half its object form); an owner of any other shape stays an object;
 * - a field as `[shared, ...segments, ...owner indexes]`: the number of leading segments it shares
 *   with the field before it, then its other segments (fields come in canonical order, so a path
 *   mostly repeats the one before it), then its owners (numbers, where segments are strings).
 * Rows written before hold owner objects and `[segments, ...owner indexes]`; both still decode.
 */
export interface EncodedOwnedFields {
  readonly owners: readonly (StoredOwner | FieldOwner)[];
  readonly fields: readonly StoredField[];
}

/** An owner as stored: `[manager, operation, apiVersion, subresource, since.seq, since.at, sinceFirstObservation]`. */
type StoredOwner = readonly [string, FieldOwner['operation'], string, string, string, string, boolean];

/** A field as stored: `[shared, ...segments, ...owners]`, or (rows written before) `[segments, ...owners]`. */
type StoredField = readonly [number, ...(string | number)[]] | readonly [readonly string[], ...number[]];

/** An ownership state with its fields encoded; its schema is stored beside it (a column of its own). */
export type EncodedOwnershipState = Omit<ObjectOwnershipState, 'fields' | 'schema'> & { readonly fields: EncodedOwnedFields };

/** An owner's values in stored order: its stored form, and (as JSON) the key that finds it once. */
const ownerValues = (o: FieldOwner): StoredOwner => [o.manager, o.operation, o.apiVersion, o.subresource, o.since.seq, o.since.at, o.sinceFirstObservation];

const OWNER_KEYS = 'manager,operation,apiVersion,subresource,since,sinceFirstObservation';

/** The array form of an owner whose keys are exactly those of `FieldOwner`, in its order (so decoding rebuilds it byte for byte); else the owner as is. */
function storedOwner(o: FieldOwner): StoredOwner | FieldOwner {
  const exact =
    Object.keys(o).join(',') === OWNER_KEYS && Object.keys(o.since).join(',') === 'seq,at' &&
    typeof o.manager === 'string' && (o.operation === 'Apply' || o.operation === 'Update') && typeof o.apiVersion === 'string' && typeof o.subresource === 'string' &&
    typeof o.since.seq === 'string' && typeof o.since.at === 'string' && typeof o.sinceFirstObservation === 'boolean';
  return exact ? ownerValues(o) : o;
}

function ownerOf(stored: StoredOwner | FieldOwner): FieldOwner {
  if (!Array.isArray(stored)) return stored as FieldOwner;
  const [manager, operation, apiVersion, subresource, seq, at, sinceFirstObservation] = stored as StoredOwner;
  return { manager, operation, apiVersion, subresource, since: { seq, at }, sinceFirstObservation };
}

/** Encodings by fields list: a fold keeps an unchanged list as the same array, and states and versions share it. */
const ENCODED = new WeakMap<readonly OwnedField[], EncodedOwnedFields>();

export function encodeOwnedFields(fields: readonly OwnedField[]): EncodedOwnedFields {
  const cached = ENCODED.get(fields);
  if (cached) return cached;
  const owners: FieldOwner[] = [];
  const index = new Map<string, number>();
  // Fields usually share their owner objects: look those up by identity before building a key.
  const byObject = new Map<FieldOwner, number>();
  let previous: readonly string[] = [];
  const out = fields.map((f): StoredField => {
    const refs = f.owners.map((o) => {
      let i = byObject.get(o);
      if (i !== undefined) return i;
      const k = JSON.stringify(ownerValues(o));
      i = index.get(k);
      if (i === undefined) {
        i = owners.length;
        owners.push(o);
        index.set(k, i);
      }
      byObject.set(o, i);
      return i;
    });
    let shared = 0;
    while (shared < previous.length && shared < f.segments.length && previous[shared] === f.segments[shared]) shared++;
    previous = f.segments;
    return [shared, ...f.segments.slice(shared), ...refs];
  });
  const encoded = { owners: owners.map(storedOwner), fields: out };
  ENCODED.set(fields, encoded);
  return encoded;
}

/** Human forms of segment paths already seen (the same paths recur in every state of a kind). */
const humanForms = new Map<string, string>();
const HUMAN_FORMS_MAX = 100_000;

function humanForm(segments: readonly string[]): string {
  const key = segments.join('\u0000'); // the dotted form is ambiguous: a segment may hold a dot
  let human = humanForms.get(key);
  if (human === undefined) {
    human = pathToHuman(segments.map((s) => parsePE(s) as PathElement));
    if (humanForms.size >= HUMAN_FORMS_MAX) humanForms.clear();
    humanForms.set(key, human);
  }
  return human;
}

/** The owned fields of an encoded form (as parsed from JSON: fields of one owner share its object, as states never change them). */
export function decodeOwnedFields(encoded: EncodedOwnedFields): OwnedField[] {
  const owners = encoded.owners.map(ownerOf);
  let previous: readonly string[] = [];
  return encoded.fields.map((stored) => {
    let segments: readonly string[];
    let refs: readonly number[];
    if (typeof stored[0] === 'number') {
      const rest = stored.slice(1) as readonly (string | number)[];
      const n = rest.findIndex((x) => typeof x === 'number');
      const suffix = (n < 0 ? rest : rest.slice(0, n)) as readonly string[];
      segments = stored[0] === 0 ? suffix : [...previous.slice(0, stored[0]), ...suffix];
      refs = (n < 0 ? [] : rest.slice(n)) as readonly number[];
    } else {
      const [written, ...indexes] = stored as readonly [readonly string[], ...number[]];
      segments = written;
      refs = indexes;
    }
    previous = segments;
    return { path: humanForm(segments), fieldsV1Path: segments.join('.'), segments, owners: refs.map((i) => owners[i]!) };
  });
}

export const encodeOwnershipState = ({ schema: _schema, ...s }: ObjectOwnershipState): EncodedOwnershipState => ({ ...s, fields: encodeOwnedFields(s.fields) });

/** `schema` as stored beside the state (`null` before schemas were recorded: see `recordedSchema`). */
export const decodeOwnershipState = (s: EncodedOwnershipState, schema: SchemaUsed | null): ObjectOwnershipState => ({
  ...s,
  fields: decodeOwnedFields(s.fields),
  schema: recordedSchema(schema, s.apiVersion, s.kind, s.cluster),
});
