import type { Queryable } from '../database/queryable.js';
import { preparedOrPlainQuery } from '../database/prepared-query.js';
import type { EventFacts, ObservedEvent } from '../../../audit/src/index.js';
import { decodeBodyChain, type Body, type BodyEncoding } from '../ingest/body.util.js';
import { readManagedFieldsTexts } from './blob-texts.js';
import type { StoredEvent, StoredEventWithBody } from './event-reader.js';

/**
 * Turns stored events back into the audit lib's {@link ObservedEvent}s: bodies rebuilt from their
 * snapshot + patch chains (one query), managedFields from their content-addressed blobs
 * (two queries per call, whatever the number of events).
 */
export class ObservedEventLoader {
  constructor(private readonly dataSource: Queryable) {}

  async load(events: readonly StoredEvent[]): Promise<ObservedEvent[]> {
    if (events.length === 0) return [];
    const [bodies, managedFields] = await Promise.all([this.bodies(events), this.managedFields(events)]);
    return events.map((e) => observedEventOf(e, rebuildObject(bodies.get(e.seq)!, e.resourceVersion, managedFields.get(e.seq)!)));
  }

  /**
   * The events of `chain` from index `from` on, their bodies rebuilt from the chain's own (every
   * event of one object, oldest first, from a full snapshot: no body read again) and their
   * managedFields from their blobs.
   */
  async loadChain(chain: readonly StoredEventWithBody[], from = 0): Promise<ObservedEvent[]> {
    const events = chain.slice(from);
    if (events.length === 0) return [];
    const bodies = decodeBodyChain(
      chain.map((e) => ({ encoding: e.bodyEncoding, json: e.bodyJson })),
      (i) => i >= from,
    );
    const managedFields = await this.managedFields(events);
    return events.map((e, i) => observedEventOf(e, rebuildObject(bodies[from + i]!, e.resourceVersion, managedFields.get(e.seq)!)));
  }

  /**
   * The body at every event, by seq: for each object, the chain from its last full snapshot at or
   * before its first event here, up to its last event here (one query for every object).
   */
  private async bodies(events: readonly StoredEvent[]): Promise<Map<string, Body>> {
    const range = new Map<string, { min: bigint; max: bigint }>();
    for (const e of events) {
      const seq = BigInt(e.seq);
      const r = range.get(e.objectId);
      if (!r) range.set(e.objectId, { min: seq, max: seq });
      else if (seq < r.min) r.min = seq;
      else if (seq > r.max) r.max = seq;
    }
    const ids = [...range.keys()];
    // Prepared (through a data source): the partitioned log plans in several times the time this runs.
    const rows = await preparedOrPlainQuery<{ object_id: string; seq: string; body_encoding: BodyEncoding; json: string }>(
      this.dataSource,
      'event-bodies',
      `WITH wanted AS (
         SELECT w.object_id, w.min_seq, w.max_seq,
                (SELECT max(s.seq) FROM events s WHERE s.object_id = w.object_id AND s.seq <= w.min_seq AND s.body_encoding = 'full') AS from_seq
         FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS w(object_id, min_seq, max_seq)
       )
       SELECT e.object_id::text AS object_id, e.seq::text AS seq, e.body_encoding, convert_from(b.bytes, 'UTF8') AS json
       FROM wanted w JOIN events e ON e.object_id = w.object_id AND e.seq BETWEEN w.from_seq AND w.max_seq
         -- before the first event asked for, only what later bodies are built on (snapshot patches need only their snapshot)
         AND (e.body_encoding <> 'snapshot-patch' OR e.seq >= w.min_seq)
       JOIN blobs b ON b.hash = e.body_hash
       ORDER BY e.object_id, e.seq`,
      [ids, ids.map((id) => String(range.get(id)!.min)), ids.map((id) => String(range.get(id)!.max))],
    );
    // The chain from a snapshot reaches back before the first event asked for: only those asked for are kept.
    const wanted = new Set(events.map((e) => e.seq));
    const out = new Map<string, Body>();
    for (let start = 0; start < rows.length; ) {
      let end = start + 1;
      while (end < rows.length && rows[end]!.object_id === rows[start]!.object_id) end++;
      const chain = rows.slice(start, end);
      const decoded = decodeBodyChain(chain.map((r) => ({ encoding: r.body_encoding, json: r.json })), (i) => wanted.has(chain[i]!.seq));
      chain.forEach((r, i) => {
        const body = decoded[i];
        if (body) out.set(r.seq, body);
      });
      start = end;
    }
    for (const e of events) if (!out.has(e.seq)) throw new Error(`no body for event ${e.seq}`);
    return out;
  }

  private async managedFields(events: readonly StoredEvent[]): Promise<Map<string, Record<string, unknown>[]>> {
    const { lists, entries: texts } = await readManagedFieldsTexts(this.dataSource, [...new Set(events.map((e) => e.managedFieldsHash))]);
    const listOf = new Map([...lists].map(([h, t]) => [h, JSON.parse(t) as string[]]));
    // Each entry parsed once: the events of an object that keep an entry share its document (the engine parses its FieldsV1 once).
    const entries = new Map([...texts].map(([h, t]) => [h, JSON.parse(t) as Record<string, unknown>]));
    const out = new Map<string, Record<string, unknown>[]>();
    for (const e of events) {
      const hashes = listOf.get(e.managedFieldsHash);
      if (!hashes) throw new Error(`missing blob ${e.managedFieldsHash}`);
      out.set(
        e.seq,
        hashes.map((h, i) => {
          const entry = entries.get(h);
          if (entry === undefined) throw new Error(`missing blob ${h}`);
          return managedFieldsEntry(entry, e.managedFieldsTimes[i] ?? null);
        }),
      );
    }
    return out;
  }
}

/** What an {@link ObservedEvent} takes from its stored event and object row. */
export type StoredEventFacts = Pick<StoredEvent, 'seq' | 'cluster' | 'uid' | 'objectId' | 'group' | 'version' | 'kind' | 'namespace' | 'name' | 'resourceVersion' | 'observedAt' | 'eventType' | 'source'>;

/** The event the projections fold: the loader's for a stored event, an append's for one it just stored. */
export function observedEventOf(e: StoredEventFacts, object: Record<string, unknown>): ObservedEvent {
  return { ...eventFactsOf(e), object };
}

/** What the audit lib knows of a stored event before its body is read. */
export function eventFactsOf(e: StoredEventFacts): EventFacts {
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
  };
}

const ENTRY_KEYS = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource'];

/** The object of an event: its stored body with `resourceVersion` and `managedFields` put back. */
export function rebuildObject(body: Body, resourceVersion: string, managedFields: readonly Record<string, unknown>[]): Record<string, unknown> {
  const metadata = { ...((body['metadata'] as Record<string, unknown> | undefined) ?? {}), resourceVersion, managedFields };
  return { ...body, metadata };
}

/** Entries are stored as canonical JSON without `time`; give them back with it, in the apiserver's key order. */
export function managedFieldsEntry(entry: Record<string, unknown>, time: string | null): Record<string, unknown> {
  const all: Record<string, unknown> = time ? { ...entry, time } : { ...entry };
  const out: Record<string, unknown> = {};
  for (const k of ENTRY_KEYS) if (k in all) out[k] = all[k];
  for (const k of Object.keys(all)) if (!(k in out)) out[k] = all[k];
  return out;
}
