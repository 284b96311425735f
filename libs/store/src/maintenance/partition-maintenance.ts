import type { DataSource } from 'typeorm';
import { inTransaction } from '../database/transaction.util.js';

// One maintainer at a time across all workers.
const MAINTENANCE_LOCK = 7_291_002;

export interface MaintenanceResult {
  readonly skipped: boolean;
  readonly created: readonly string[];
  readonly dropped: readonly string[];
}

const partitionName = (d: Date) => `events_y${d.getUTCFullYear()}m${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
const monthStart = (d: Date, plus: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + plus, 1));

/**
 * Creates the monthly event partitions from this month to `monthsAhead` ahead, and drops whole
 * partitions (and idempotency records) older than the retention. Singleton work: takes an advisory lock.
 */
export class PartitionMaintenance {
  constructor(private readonly dataSource: DataSource) {}

  async run(now: Date, monthsAhead: number, retentionDays: number): Promise<MaintenanceResult> {
    return inTransaction(this.dataSource, async (q) => {
      const [{ locked }] = (await q.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [MAINTENANCE_LOCK])) as { locked: boolean }[];
      if (!locked) return { skipped: true, created: [], dropped: [] };
      const existing = new Set(
        ((await q.query(
          `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
           WHERE p.relname = 'events'`,
        )) as { relname: string }[]).map((r) => r.relname),
      );
      const created: string[] = [];
      for (let m = 0; m <= monthsAhead; m++) {
        const from = monthStart(now, m);
        const name = partitionName(from);
        if (existing.has(name)) continue;
        // The parent first, before any partition: an ingest batch holds the parent and then takes a
        // partition, so taking them the other way round can deadlock with it.
        if (created.length === 0) await q.query(`LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE`);
        const bounds = `FROM ('${from.toISOString()}') TO ('${monthStart(now, m + 1).toISOString()}')`;
        const [{ stranded }] = (await q.query(
          `SELECT EXISTS (SELECT 1 FROM events_default WHERE observed_at >= $1 AND observed_at < $2) AS stranded`,
          [from, monthStart(now, m + 1)],
        )) as { stranded: boolean }[];
        if (!stranded) {
          await q.query(`CREATE TABLE ${name} PARTITION OF events FOR VALUES ${bounds}`);
        } else {
          // Rows of this month already sit in the default partition (it was missing): move them, then attach.
          await q.query(`CREATE TABLE ${name} (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
          await q.query(
            `WITH moved AS (DELETE FROM events_default WHERE observed_at >= $1 AND observed_at < $2 RETURNING *)
             INSERT INTO ${name} SELECT * FROM moved`,
            [from, monthStart(now, m + 1)],
          );
          await q.query(`ALTER TABLE events ATTACH PARTITION ${name} FOR VALUES ${bounds}`);
        }
        created.push(name);
      }
      const dropped: string[] = [];
      if (retentionDays > 0) {
        const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
        for (const name of existing) {
          const m = /^events_y(\d{4})m(\d{2})$/.exec(name);
          if (!m) continue;
          const end = new Date(Date.UTC(Number(m[1]), Number(m[2]), 1)); // first instant after the partition
          if (end <= cutoff) {
            await q.query(`DROP TABLE ${name}`);
            dropped.push(name);
          }
        }
        await q.query(`DELETE FROM observations_seen WHERE observed_at < $1`, [cutoff]);
      }
      return { skipped: false, created, dropped };
    });
  }
}
