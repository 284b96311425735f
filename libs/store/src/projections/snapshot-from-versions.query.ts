import type { DataSource } from 'typeorm';
import {
  apiVersionOf,
  decodeOwnedFields,
  recordedSchema,
  type SchemaUsed,
  snapshotFromVersion,
  type AsOf,
  type EncodedOwnedFields,
  type OwnershipSnapshot,
} from '../../../audit/src/index.js';
import { preparedQuery } from '../database/prepared-query.js';
import { managedFieldsEntry, rebuildObject } from '../events/observed-event.loader.js';
import { decodeParsedBody, type BodyEncoding } from '../ingest/body.util.js';
import { ACTIVE_GENERATION as ACTIVE } from './active-generation.sql.js';
import { recordedSchemaSql } from './schema-choices.js';
import { VERSION_ANSWERS, versionAtParams, versionInForceSql } from './version-in-force.sql.js';

interface VersionRow {
  cluster: string; uid: string; api_group: string; api_version: string; kind: string; namespace: string | null; name: string;
  schema: SchemaUsed | null; seq: string | null; answers: boolean; deleted: boolean | null; fields: EncodedOwnedFields | null;
  resource_version: string | null; observed_at: Date | null; managed_fields_times: (string | null)[] | null;
  /** The body chain up to the event: `[encoding, full body or patch]`, oldest first. */
  body: [BodyEncoding, unknown][] | null;
  managed_fields: Record<string, unknown>[] | null;
}

/**
 * The object as of `at` from the ownership version in force then and the object's latest event up
 * to it, its body rebuilt from its patch chain and its managedFields from their blobs: one prepared
 * query, whatever the length of its history. `'no-event'` when the object has no event by then;
 * `null` where versions cannot answer exactly and the events must be folded: `at` past what is
 * projected, an unreadable latest event, a time up to which the object's events are not a prefix of
 * its history, an object or generation without versions.
 */
export async function readSnapshotFromVersions(dataSource: DataSource, objectId: string, at: AsOf): Promise<OwnershipSnapshot | 'no-event' | null> {
  const usable = `${VERSION_ANSWERS} AND NOT v.deleted`;
  const rows = await preparedQuery<VersionRow>(
    dataSource,
    `ownership-snapshot-at-${at.kind}`,
    `SELECT s.cluster, s.uid, s.api_group, s.api_version, s.kind, s.namespace, s.name, ${recordedSchemaSql('s')} AS schema,
            t.seq::text AS seq, ${VERSION_ANSWERS} AS answers, v.deleted, v.fields,
            ev.resource_version, ev.observed_at, ev.managed_fields_times, body.parts AS body, mf.entries AS managed_fields
     FROM ownership_states s
     ${versionInForceSql('$1::bigint', at.kind, '$2', '$3')}
     LEFT JOIN LATERAL (
       SELECT e.resource_version, e.observed_at, e.managed_fields_times, e.managed_fields_hash FROM events e
       WHERE e.object_id = $1::bigint AND e.seq = t.seq
     ) ev ON true
     LEFT JOIN LATERAL (
       -- blobs by key, one at a time (scalar subqueries): a prepared statement's generic plan must not hash-join the blob store
       SELECT json_agg(json_build_array(e.body_encoding, (SELECT convert_from(b.bytes, 'UTF8')::json FROM blobs b WHERE b.hash = e.body_hash)) ORDER BY e.seq) AS parts
       FROM events e
       WHERE e.object_id = $1::bigint AND e.seq <= t.seq
         AND e.seq >= (SELECT max(f.seq) FROM events f WHERE f.object_id = $1::bigint AND f.seq <= t.seq AND f.body_encoding = 'full')
         AND (e.body_encoding <> 'snapshot-patch' OR e.seq = t.seq)
     ) body ON ${usable}
     LEFT JOIN LATERAL (
       SELECT coalesce(json_agg((SELECT convert_from(entry.bytes, 'UTF8')::json FROM blobs entry WHERE entry.hash = decode(l.hash, 'hex')) ORDER BY l.ord), '[]') AS entries
       FROM blobs list
       CROSS JOIN LATERAL json_array_elements_text(convert_from(list.bytes, 'UTF8')::json) WITH ORDINALITY AS l(hash, ord)
       WHERE list.hash = ev.managed_fields_hash
     ) mf ON ${usable}
     WHERE s.generation = ${ACTIVE} AND s.object_id = $1::text`,
    [objectId, ...versionAtParams(at)],
  );
  const r = rows[0];
  if (r && r.seq === null) return 'no-event';
  if (!r || !r.answers) return null;
  // A deleted object's body is never read (snapshotFromVersion leaves it out).
  const object = r.deleted
    ? null
    : rebuildObject(
        decodeParsedBody(r.body!.map(([encoding, doc]) => ({ encoding, doc }))),
        r.resource_version!,
        r.managed_fields!.map((entry, i) => managedFieldsEntry(entry, r.managed_fields_times![i] ?? null)),
      );
  const apiVersion = apiVersionOf(r.api_group, r.api_version);
  return snapshotFromVersion(
    {
      objectId, cluster: r.cluster, uid: r.uid, group: r.api_group, version: r.api_version, apiVersion,
      kind: r.kind, namespace: r.namespace, name: r.name, schema: recordedSchema(r.schema, apiVersion, r.kind, r.cluster),
    },
    { deleted: r.deleted!, fields: decodeOwnedFields(r.fields!) },
    { seq: r.seq!, at: r.observed_at!.toISOString(), object },
  );
}
