import type { DataSource, QueryRunner } from 'typeorm';
import { inTransaction } from '../database/transaction.util.js';
import { ACTIVE_GENERATION } from '../projections/active-generation.sql.js';
import { SEQUENCE_CHECKPOINTS, TIME_CHECKPOINTS, type CheckpointTables } from '../projections/manager-version-sums.sql.js';
import { notProjectedSeqsSql, someNotProjectedBefore } from '../projections/not-projected.sql.js';

/**
 * Held exclusively by a checkpoint's build and shared by the versions' triggers (migration
 * `ManagerCheckpoints`): the build's snapshot is taken after every batch whose trigger has run has
 * committed, and a batch whose trigger runs later sees the checkpoint and deletes it if it must.
 */
export const MANAGER_CHECKPOINTS_LOCK = 7_291_004;

/**
 * Sequences, or version starts and ends by time, between two checkpoints: a read at S sums the
 * versions' starts and ends between the checkpoint at or before S and S.
 */
export const CHECKPOINT_EVERY = 5_000;

/** Checkpoints of each axis one run builds at most, each in a transaction of its own from the one before; the next run goes on. */
const PER_RUN = 200;
/** Tries of the lock while batches hold it, and the wait between two. */
const BUSY_TRIES = 20;
const BUSY_WAIT_MS = 25;

/** What one run did. */
export interface CheckpointResult {
  /** The sequences and the times checkpointed, and the rows their sums took. */
  readonly built: string[];
  readonly times: string[];
  readonly rows: number;
}

/** One axis's checkpoints, and where its next one goes (`null`: none due) after the last (`null`: none yet). */
interface CheckpointAxis extends CheckpointTables {
  next(q: QueryRunner, generation: number, last: string | null): Promise<string | null>;
}

/**
 * Builds the manager index's checkpoints of the active generation (migrations `ManagerCheckpoints`
 * and `ManagerTimeCheckpoints` say what they are): by sequence at every multiple of
 * {@link CHECKPOINT_EVERY} (or `every`) up to the last sequence before which every event is
 * projected; by time at every {@link CHECKPOINT_EVERY}th version start or end after the one before,
 * when no event observed by then waits for the projector. Each from the one before (the first from
 * the start), at most {@link PER_RUN} of each a run, one a transaction (the lock held for one
 * residual's sums: milliseconds).
 */
export class ManagerCheckpoints {
  private readonly every: bigint;
  private readonly sequence: CheckpointAxis;
  private readonly time: CheckpointAxis;

  /** `every`: sequences, and version starts and ends, between two checkpoints ({@link CHECKPOINT_EVERY}; tests take fewer). */
  constructor(private readonly dataSource: DataSource, options: { every?: number } = {}) {
    this.every = BigInt(options.every ?? CHECKPOINT_EVERY);
    this.sequence = this.bySequence();
    this.time = this.byTime();
  }

  async run(): Promise<CheckpointResult> {
    const [built, times] = [[] as string[], [] as string[]];
    let rows = 0;
    for (const [axis, positions] of [[this.sequence, built], [this.time, times]] as const) {
      for (let busy = 0; positions.length < PER_RUN; ) {
        const next = await inTransaction(this.dataSource, (q) => this.buildNext(q, axis));
        if (next === 'busy') {
          // The batches hold the lock (shared) only until they commit: try again shortly, a few times.
          if (++busy > BUSY_TRIES) break;
          await new Promise((r) => setTimeout(r, BUSY_WAIT_MS));
          continue;
        }
        if (next === null) break;
        positions.push(next.position);
        rows += next.rows;
      }
    }
    return { built, times, rows };
  }

  /**
   * Builds the next checkpoint of `axis`, in the caller's transaction: `null` when none is due,
   * `'busy'` when a batch holds the lock. The lock is only tried: a waiting exclusive request would
   * queue every batch's trigger behind it (Postgres grants no shared lock past a waiting exclusive one).
   */
  private async buildNext(q: QueryRunner, axis: CheckpointAxis): Promise<{ position: string; rows: number } | 'busy' | null> {
    const [{ locked }]: { locked: boolean }[] = await q.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [MANAGER_CHECKPOINTS_LOCK]);
    if (!locked) return 'busy';
    // (a time is read as a Date: whole milliseconds, as every position is)
    const [state]: { generation: number; last: string | Date | null }[] = await q.query(
      `SELECT g.generation, (SELECT max(c.${axis.column}) FROM ${axis.table} c WHERE c.generation = g.generation)${axis.type === 'bigint' ? '::text' : ''} AS last
       FROM (SELECT ${ACTIVE_GENERATION} AS generation) g`,
    );
    if (!state) return null;
    const last = state.last instanceof Date ? state.last.toISOString() : state.last;
    const position = await axis.next(q, state.generation, last);
    if (position === null) return null;
    await q.query(`INSERT INTO ${axis.table} (generation, ${axis.column}) VALUES ($1, $2)`, [state.generation, position]);
    const [row]: { n: number }[] = await q.query(
      `WITH kept AS (
         INSERT INTO ${axis.totals} (generation, ${axis.column}, cluster, manager, identities, objects, fields)
         SELECT $1, $3::${axis.type}, d.cluster, d.manager, d.identities, sum(d.objects), sum(d.fields)
         FROM (${axis.sums('$1', `$2::${axis.type}`, `$3::${axis.type}`)}) d
         GROUP BY d.cluster, d.manager, d.identities
         HAVING sum(d.objects) <> 0 OR sum(d.fields) <> 0
         RETURNING 1
       )
       SELECT count(*)::integer AS n FROM kept`,
      [state.generation, last, position],
    );
    return { position, rows: row!.n };
  }

  /** By sequence: the next multiple of `every` after the last one (or from where versions are complete), once every event up to it is projected. */
  private bySequence(): CheckpointAxis {
    const step = this.every;
    return {
      ...SEQUENCE_CHECKPOINTS,
      next: async (q, generation, last) => {
        const [bounds]: { projected: string | null; from: string }[] = await q.query(
          `SELECT -- every event below the first one not projected yet (none: the last event) is projected
                  coalesce((SELECT min(p.seq) - 1 FROM unnest(${notProjectedSeqsSql('$1::integer')}) p(seq)), (SELECT max(e.seq) FROM events e))::text AS projected,
                  -- versions are complete from there (a generation that had states before they were kept)
                  coalesce((SELECT d.seq FROM derived_versions_start d WHERE d.generation = $1::integer), 0)::text AS from`,
          [generation],
        );
        if (!bounds || bounds.projected === null) return null;
        const first = ((BigInt(bounds.from) + step - 1n) / step) * step;
        const seq = last === null ? (first > 0n ? first : step) : BigInt(last) + step;
        return seq > BigInt(bounds.projected) ? null : String(seq);
      },
    };
  }

  /**
   * By time: the time of the `every`th version start or end after the last checkpoint (ends too: a
   * burst of deletions ends versions and starts none, and a read adds every end between its
   * checkpoint and its time), when no event observed by then waits for the projector (to the
   * millisecond, as versions are timed). An event appended later with an earlier time deletes the
   * checkpoint (the triggers), and the next run builds it again.
   */
  private byTime(): CheckpointAxis {
    return {
      ...TIME_CHECKPOINTS,
      next: async (q, generation, last) => {
        // Positions are whole milliseconds (as the projection writes times), each at least one after the last.
        const [row]: { at: Date }[] = await q.query(
          // (the first `every` of each index, merged: Postgres sorted every start and end after the last checkpoint instead)
          `SELECT date_trunc('milliseconds', x.at) AS at FROM (
             (SELECT m.at FROM manager_objects_versions m
              WHERE m.generation = $1::integer AND m.at >= coalesce($2::timestamptz + interval '1 millisecond', '-infinity')
              ORDER BY m.at LIMIT $3::bigint)
             UNION ALL
             (SELECT m.until_at FROM manager_objects_versions m
              WHERE m.generation = $1::integer AND m.until_seq IS NOT NULL AND m.until_at >= coalesce($2::timestamptz + interval '1 millisecond', '-infinity')
              ORDER BY m.until_at LIMIT $3::bigint)
           ) x
           ORDER BY x.at OFFSET $3::bigint - 1 LIMIT 1`,
          [generation, last, String(this.every)],
        );
        if (!row) return null;
        const [{ pending }]: { pending: boolean }[] = await q.query(
          `SELECT ${someNotProjectedBefore(`$2::timestamptz + interval '1 millisecond'`, '$1::integer')} AS pending`,
          [generation, row.at.toISOString()],
        );
        return pending ? null : row.at.toISOString();
      },
    };
  }
}
