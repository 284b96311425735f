import type { DataSource, QueryRunner } from 'typeorm';
import { START_POSITION, type EventPosition } from './event-position.js';

/** Where each projection stands in the event log. Checkpoints only move forward. */
export class CheckpointRepository {
  constructor(private readonly dataSource: DataSource) {}

  async get(projection: string, runner?: QueryRunner): Promise<EventPosition> {
    const rows: { xid: string; seq: string }[] = await (runner ?? this.dataSource).query(
      `SELECT last_xid::text AS xid, last_seq::text AS seq FROM projection_checkpoints WHERE projection = $1`,
      [projection],
    );
    return rows[0] ?? START_POSITION;
  }

  /** Moves the checkpoint forward (never back); inside the caller's transaction when `runner` is given. */
  async advance(projection: string, to: EventPosition, runner?: QueryRunner): Promise<void> {
    await (runner ?? this.dataSource).query(
      `INSERT INTO projection_checkpoints AS c (projection, last_xid, last_seq) VALUES ($1, $2::xid8, $3::bigint)
       ON CONFLICT (projection) DO UPDATE SET last_xid = EXCLUDED.last_xid, last_seq = EXCLUDED.last_seq, updated_at = now()
       WHERE (c.last_xid, c.last_seq) < (EXCLUDED.last_xid, EXCLUDED.last_seq)`,
      [projection, to.xid, to.seq],
    );
  }
}
