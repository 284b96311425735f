import { parsePE, pathToHuman, type PathElement } from '../../ssa-engine/src/index.js';
import type { FieldOwner } from './observed-event.types.js';
import type { ObjectOwnershipState, OwnedField } from './object-ownership.projection.js';
import { recordedSchema, type SchemaUsed } from './schema-resolver.port.js';

/**
 * Owned fields as stored: each distinct owner once, each field as its FieldsV1 segments and the
 * indexes of its owners. A Deployment's fields take about a fifth of their plain JSON (the human
 * and dotted path forms are derived again on decoding, and a manager's `since` is usually shared by
 * all its fields), and every projection batch rewrites the states it touches.
 */
export interface EncodedOwnedFields {
  readonly owners: readonly FieldOwner[];
  /** `[segments, owner index, …]` per field, in the state's order. */
  readonly fields: readonly (readonly [readonly string[], ...number[]])[];
}

/** An ownership state with its fields encoded; its schema is stored beside it (a column of its own). */
export type EncodedOwnershipState = Omit<ObjectOwnershipState, 'fields' | 'schema'> & { readonly fields: EncodedOwnedFields };

function ownerKey(o: FieldOwner): string {
  return JSON.stringify([o.manager, o.operation, o.apiVersion, o.subresource, o.since.seq, o.since.at, o.sinceFirstObservation]);
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
  const out = fields.map((f): readonly [readonly string[], ...number[]] => {
    const refs = f.owners.map((o) => {
      let i = byObject.get(o);
      if (i !== undefined) return i;
      const k = ownerKey(o);
      i = index.get(k);
      if (i === undefined) {
        i = owners.length;
        owners.push(o);
        index.set(k, i);
      }
      byObject.set(o, i);
      return i;
    });
    return [f.segments, ...refs];
  });
  const encoded = { owners, fields: out };
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
  const { owners } = encoded;
  return encoded.fields.map(([segments, ...refs]) => ({ path: humanForm(segments), fieldsV1Path: segments.join('.'), segments, owners: refs.map((i) => owners[i]!) }));
}

export const encodeOwnershipState = ({ schema: _schema, ...s }: ObjectOwnershipState): EncodedOwnershipState => ({ ...s, fields: encodeOwnedFields(s.fields) });

/** `schema` as stored beside the state (`null` before schemas were recorded: see `recordedSchema`). */
export const decodeOwnershipState = (s: EncodedOwnershipState, schema: SchemaUsed | null): ObjectOwnershipState => ({
  ...s,
  fields: decodeOwnedFields(s.fields),
  schema: recordedSchema(schema, s.apiVersion, s.kind, s.cluster),
});
