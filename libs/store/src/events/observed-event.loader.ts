import type { DataSource } from 'typeorm';
import type { ObservedEvent } from '../../../audit/src/index.js';
import { decodeBodyChain, type Body, type BodyEncoding } from '../ingest/body.util.js';
import type { StoredEvent } from './event-reader.js';

/**
 * Turns stored events back into the audit lib's {@link ObservedEvent}s: bodies rebuilt from their
 * snapshot + patch chains (one query per object), managedFields from their content-addressed blobs
 * (two queries per call, whatever the number of events).
 */
export class ObservedEventLoader {
  constructor(private readonly dataSource: DataSource) {}

  async load(events: readonly StoredEvent[]): Promise<ObservedEvent[]> {
    if (events.length === 0) return [];
    const [bodies, managedFields] = await Promise.all([this.bodies(events), this.managedFields(events)]);
    return events.map((e) => {
      const body = bodies.get(e.seq)!;
      const metadata = { ...((body['metadata'] as Record<string, unknown> | undefined) ?? {}), resourceVersion: e.resourceVersion, managedFields: managedFields.get(e.seq)! };
      return {
        seq: e.seq,
        cluster: e.cluster,
        uid: e.uid,
        objectId: e.objectId,
        group: e.group,
        version: e.version,
        kind: e.kind,
        namespace: e.namespace === '' ? null : e.namespace,
        name: e.name,
        resourceVersion: e.resourceVersion,
        observedAt: e.observedAt.toISOString(),
        watchType: e.eventType,
        source: e.source,
        object: { ...body, metadata },
      };
    });
  }

  /** The body at every event, by seq: per object, the chain from the last full snapshot before its first event. */
  private async bodies(events: readonly StoredEvent[]): Promise<Map<string, Body>> {
    const byObject = new Map<string, StoredEvent[]>();
    for (const e of events) byObject.set(e.objectId, [...(byObject.get(e.objectId) ?? []), e]);
    const out = new Map<string, Body>();
    for (const [objectId, list] of byObject) {
      const seqs = list.map((e) => BigInt(e.seq));
      const min = seqs.reduce((a, b) => (b < a ? b : a));
      const max = seqs.reduce((a, b) => (b > a ? b : a));
      const rows: { seq: string; body_encoding: BodyEncoding; json: string }[] = await this.dataSource.query(
        `SELECT e.seq::text AS seq, e.body_encoding, convert_from(b.bytes, 'UTF8') AS json
         FROM events e JOIN blobs b ON b.hash = e.body_hash
         WHERE e.object_id = $1::bigint AND e.seq <= $3::bigint
           AND e.seq >= (SELECT max(s.seq) FROM events s WHERE s.object_id = $1::bigint AND s.seq <= $2::bigint AND s.body_encoding = 'full')
         ORDER BY e.seq`,
        [objectId, String(min), String(max)],
      );
      const decoded = decodeBodyChain(rows.map((r) => ({ encoding: r.body_encoding, json: r.json })));
      rows.forEach((r, i) => out.set(r.seq, decoded[i]!));
    }
    for (const e of events) if (!out.has(e.seq)) throw new Error(`no body for event ${e.seq}`);
    return out;
  }

  private async managedFields(events: readonly StoredEvent[]): Promise<Map<string, Record<string, unknown>[]>> {
    const lists = await this.blobs([...new Set(events.map((e) => e.managedFieldsHash))]);
    const listOf = new Map([...lists].map(([h, t]) => [h, JSON.parse(t) as string[]]));
    const entries = await this.blobs([...new Set([...listOf.values()].flat())]);
    const out = new Map<string, Record<string, unknown>[]>();
    for (const e of events) {
      const hashes = listOf.get(e.managedFieldsHash);
      if (!hashes) throw new Error(`missing blob ${e.managedFieldsHash}`);
      out.set(
        e.seq,
        hashes.map((h, i) => {
          const text = entries.get(h);
          if (text === undefined) throw new Error(`missing blob ${h}`);
          return inApiServerOrder(JSON.parse(text) as Record<string, unknown>, e.managedFieldsTimes[i] ?? null);
        }),
      );
    }
    return out;
  }

  private async blobs(hexes: readonly string[]): Promise<Map<string, string>> {
    if (hexes.length === 0) return new Map();
    const rows: { h: string; t: string }[] = await this.dataSource.query(
      `SELECT encode(hash, 'hex') AS h, convert_from(bytes, 'UTF8') AS t FROM blobs WHERE hash = ANY($1::bytea[])`,
      [hexes.map((h) => Buffer.from(h, 'hex'))],
    );
    return new Map(rows.map((r) => [r.h, r.t]));
  }
}

const ENTRY_KEYS = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource'];

/** Entries are stored as canonical JSON without `time`; give them back in the apiserver's key order. */
function inApiServerOrder(entry: Record<string, unknown>, time: string | null): Record<string, unknown> {
  const all: Record<string, unknown> = time ? { ...entry, time } : { ...entry };
  const out: Record<string, unknown> = {};
  for (const k of ENTRY_KEYS) if (k in all) out[k] = all[k];
  for (const k of Object.keys(all)) if (!(k in out)) out[k] = all[k];
  return out;
}
