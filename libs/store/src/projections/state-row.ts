import { decodeOwnershipState, encodeOwnershipState, type EncodedOwnershipState, type ObjectOwnershipState, type SchemaUsed } from '../../../audit/src/index.js';
import { recordedSchemaSql } from './schema-choices.js';
import { compressStateDocument, decompressStateDocument } from './state-document.codec.js';

/**
 * An `ownership_states` row: the object's identity and sequence range are columns (they filter and
 * order the queries), and the `state` document holds only the rest, so the identity is stored once
 * per row (about 200 bytes of a small object's state). The times stay in the document as observed
 * (their columns are timestamptz, which would normalise the text). Rows written before keep the
 * identity in the document too; the columns hold the same values.
 *
 * The document is stored compressed (`state_compressed`, see `state-document.codec.ts`); rows written
 * before hold it as `json` (`state`) and read as before. Exactly one of the two is set.
 */
type StateDocument = Omit<EncodedOwnershipState, 'objectId' | 'cluster' | 'uid' | 'group' | 'version' | 'kind' | 'namespace' | 'name' | 'deleted' | 'firstSeq' | 'lastSeq'>;

/** The columns that read an `ownership_states` row (alias `s`) back as a state, its recorded schema included. */
export const STATE_COLUMNS = `s.object_id, s.cluster, s.uid, s.api_group, s.api_version, s.kind, s.namespace, s.name, s.deleted,
  s.first_seq::text AS first_seq, s.last_seq::text AS last_seq, s.state, s.state_compressed, ${recordedSchemaSql('s')} AS schema`;

/** An `ownership_states` row as {@link STATE_COLUMNS} reads it. */
export interface StateRow {
  object_id: string;
  cluster: string;
  uid: string;
  api_group: string;
  api_version: string;
  kind: string;
  namespace: string | null;
  name: string;
  deleted: boolean;
  first_seq: string;
  last_seq: string;
  state: StateDocument | null;
  state_compressed: Buffer | null;
  schema: SchemaUsed | null;
}

/**
 * The columns and document of a state, as `writeStates` stores them: `state_compressed` is the
 * compressed document in base64 (the statement decodes it to `bytea`).
 */
export function stateRowOf(s: ObjectOwnershipState) {
  const { objectId: _o, cluster: _c, uid: _u, group: _g, version: _v, kind: _k, namespace: _ns, name: _n, deleted: _d, firstSeq: _f, lastSeq: _l, ...document } = encodeOwnershipState(s);
  return {
    object_id: s.objectId, cluster: s.cluster, uid: s.uid, api_group: s.group, api_version: s.version, kind: s.kind, namespace: s.namespace,
    name: s.name, deleted: s.deleted, first_seq: s.firstSeq, first_at: s.firstAt, last_seq: s.lastSeq, last_at: s.lastAt,
    state_compressed: compressStateDocument(document satisfies StateDocument).toString('base64'),
  };
}

/**
 * A state from its row, the keys in the order the projection builds them; every key of the document
 * is kept (one the state gains later needs no change here).
 */
export function stateFromRow(r: StateRow): ObjectOwnershipState {
  const d = r.state ?? (decompressStateDocument(r.state_compressed!) as StateDocument);
  const ordered = {
    objectId: r.object_id, cluster: r.cluster, uid: r.uid, group: r.api_group, version: r.api_version, apiVersion: d.apiVersion, kind: r.kind,
    namespace: r.namespace, name: r.name, resourceVersion: d.resourceVersion, firstSeq: r.first_seq, firstAt: d.firstAt, lastSeq: r.last_seq,
    lastAt: d.lastAt, deleted: r.deleted,
  };
  // Assigned, not spread: the keys above keep their places, the document's others follow in its order.
  return decodeOwnershipState(Object.assign(ordered, d), r.schema);
}
