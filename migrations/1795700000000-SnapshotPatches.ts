import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bodies are stored once. An event's body is whole (`full`, a snapshot) or a patch against the
 * object's last snapshot (`snapshot-patch`), so the object row keeps that snapshot's blob hash
 * (32 bytes) instead of a copy of its newest body (`tip_body`, rewritten by every event). Events
 * stored before keep their `json-patch` bodies (a patch against the previous event's body) and are
 * still read; each object's snapshot is the body of its newest `full` event, so its next patch is
 * made against that. One indexed lookup per object and one pass over the events for the new
 * CHECK: no event is rewritten.
 */
export class SnapshotPatches1795700000000 implements MigrationInterface {
  name = 'SnapshotPatches1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events DROP CONSTRAINT ck_events_body_encoding`);
    await q.query(`ALTER TABLE events ADD CONSTRAINT ck_events_body_encoding CHECK (body_encoding IN ('full', 'snapshot-patch', 'json-patch'))`);
    // Dropped first: the rows the UPDATE writes then carry no body (the old row versions' space is reused once vacuumed).
    await q.query(`ALTER TABLE objects DROP COLUMN tip_body`);
    await q.query(`ALTER TABLE objects ADD COLUMN snapshot_hash bytea`);
    await q.query(`
      UPDATE objects o SET snapshot_hash = (
        SELECT e.body_hash FROM events e
        WHERE e.object_id = o.id AND e.body_encoding = 'full'
        ORDER BY e.seq DESC LIMIT 1)
      WHERE o.last_seq IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    const [{ n }] = (await q.query(`SELECT count(*)::int AS n FROM events WHERE body_encoding = 'snapshot-patch'`)) as { n: number }[];
    if (n > 0) throw new Error(`${n} events store their bodies as patches against a snapshot, which the older schema cannot read: restore a backup taken before this migration`);
    // No tip body: the older appender stores each object's next body whole and patches from there.
    await q.query(`ALTER TABLE objects ADD COLUMN tip_body bytea`);
    await q.query(`ALTER TABLE objects DROP COLUMN snapshot_hash`);
    await q.query(`ALTER TABLE events DROP CONSTRAINT ck_events_body_encoding`);
    await q.query(`ALTER TABLE events ADD CONSTRAINT ck_events_body_encoding CHECK (body_encoding IN ('full', 'json-patch'))`);
  }
}
