import type { DataSource } from 'typeorm';
import type { ObservedEvent, ProjectionLog, SeqRange } from '../../../audit/src/index.js';
import type { EventPosition } from './event-position.js';
import { EventReader, type StoredEvent } from './event-reader.js';
import { ObservedEventLoader } from './observed-event.loader.js';

/** The audit lib's {@link ProjectionLog} port on Postgres: the log read by position, bodies and managedFields rebuilt. */
export class PostgresProjectionLog implements ProjectionLog<StoredEvent> {
  private readonly reader: EventReader;
  private readonly loader: ObservedEventLoader;

  constructor(private readonly dataSource: DataSource) {
    this.reader = new EventReader(dataSource);
    this.loader = new ObservedEventLoader(dataSource);
  }

  readAfter(position: EventPosition, limit: number, maxBodyBytes: number): Promise<StoredEvent[]> {
    return this.reader.readAfterWithin(position, limit, maxBodyBytes);
  }

  load(events: readonly StoredEvent[]): Promise<ObservedEvent[]> {
    return this.loader.load(events);
  }

  async countAfter(position: EventPosition): Promise<number> {
    const rows: { n: string }[] = await this.dataSource.query(
      `SELECT count(*) AS n FROM (SELECT 1 FROM events WHERE (xid, seq) > ($1::xid8, $2::bigint) LIMIT 1000000) t`,
      [position.xid, position.seq],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async estimatedSize(): Promise<number> {
    // The sequence is free where count(*) is not.
    const rows: { n: string }[] = await this.dataSource.query(`SELECT coalesce(last_value, 0) AS n FROM events_seq`);
    return Number(rows[0]?.n ?? 0);
  }

  async objectsOfCluster(cluster: string): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT o.id::text AS id FROM objects o JOIN clusters c ON c.id = o.cluster_id WHERE c.name = $1 ORDER BY o.id`,
      [cluster],
    );
    return rows.map((r) => r.id);
  }

  async historyLengths(objectIds: readonly string[]): Promise<Map<string, number>> {
    if (objectIds.length === 0) return new Map();
    // Counted from the index of (object_id, seq) alone.
    const rows: { id: string; n: number }[] = await this.dataSource.query(
      `SELECT e.object_id::text AS id, count(*)::integer AS n FROM events e WHERE e.object_id = ANY ($1::bigint[]) GROUP BY e.object_id`,
      [objectIds],
    );
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  async objectsOutOfOrder(after: EventPosition, ranges: ReadonlyMap<string, SeqRange>): Promise<string[]> {
    const ids: string[] = [];
    const above: string[] = [];
    const below: string[] = [];
    for (const [id, r] of ranges) {
      ids.push(id);
      above.push(r.above);
      below.push(r.below);
    }
    // One range scan of (object_id, seq) per object, between what its state holds and the page's highest seq.
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT r.id::text AS id FROM unnest($3::bigint[], $4::bigint[], $5::bigint[]) AS r(id, above, below)
       WHERE EXISTS (SELECT 1 FROM events e WHERE e.object_id = r.id AND e.seq > r.above AND e.seq < r.below AND (e.xid, e.seq) > ($1::xid8, $2::bigint))
       ORDER BY r.id`,
      [after.xid, after.seq, ids, above, below],
    );
    return rows.map((r) => r.id);
  }
}
