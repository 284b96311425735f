import type { DataSource, QueryRunner } from 'typeorm';
import { inTransaction } from '../database/transaction.util.js';
import { ACTIVE_GENERATION } from '../projections/active-generation.sql.js';
import { versionSumsFromCheckpoint } from '../projections/manager-version-sums.sql.js';
import { notProjectedSql } from '../projections/not-projected.sql.js';

/**
 * Held exclusively by a checkpoint's build and shared by the versions' triggers (migration
 * `ManagerCheckpoints`): the build's snapshot is taken after every batch whose trigger has run has
 * committed, and a batch whose trigger runs later sees the checkpoint and deletes it if it must.
 */
export const MANAGER_CHECKPOINTS_LOCK = 7_291_004;

/** Sequences between two checkpoints: a read at S sums the versions' starts and ends between the checkpoint below S and S. */
export const CHECKPOINT_EVERY = 5_000;

/** Checkpoints one run builds at most, each in a transaction of its own from the one before; the next run goes on. */
const PER_RUN = 200;
/** Tries of the lock while batches hold it, and the wait between two. */
const BUSY_TRIES = 20;
const BUSY_WAIT_MS = 25;

/** What one run did. */
export interface CheckpointResult {
  /** The sequences checkpointed, and the rows their sums took. */
  readonly built: string[];
  readonly rows: number;
}

/**
 * Builds the manager index's checkpoints of the active generation (migration `ManagerCheckpoints`
 * says what they are): at every multiple of {@link CHECKPOINT_EVERY} (or `every`) up to the last sequence before
 * which every event is projected, each from the one before (the first from the start), at most
 * {@link PER_RUN} a run, one a transaction (the lock held for one residual's sums: milliseconds).
 */
export class ManagerCheckpoints {
  private readonly every: bigint;

  /** `every`: sequences between two checkpoints ({@link CHECKPOINT_EVERY}; tests take fewer). */
  constructor(private readonly dataSource: DataSource, options: { every?: number } = {}) {
    this.every = BigInt(options.every ?? CHECKPOINT_EVERY);
  }

  async run(): Promise<CheckpointResult> {
    const built: string[] = [];
    let rows = 0;
    for (let busy = 0; built.length < PER_RUN; ) {
      const next = await inTransaction(this.dataSource, (q) => this.buildNext(q));
      if (next === 'busy') {
        // The batches hold the lock (shared) only until they commit: try again shortly, a few times.
        if (++busy > BUSY_TRIES) break;
        await new Promise((r) => setTimeout(r, BUSY_WAIT_MS));
        continue;
      }
      if (next === null) break;
      built.push(next.seq);
      rows += next.rows;
    }
    return { built, rows };
  }

  /**
   * Builds the next checkpoint, in the caller's transaction: `null` when none is due, `'busy'` when
   * a batch holds the lock. The lock is only tried: a waiting exclusive request would queue every
   * batch's trigger behind it (Postgres grants no shared lock past a waiting exclusive one).
   */
  private async buildNext(q: QueryRunner): Promise<{ seq: string; rows: number } | 'busy' | null> {
    const [{ locked }]: { locked: boolean }[] = await q.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [MANAGER_CHECKPOINTS_LOCK]);
    if (!locked) return 'busy';
    const [state]: { generation: number; last: string | null; projected: string | null; from: string }[] = await q.query(
      `SELECT g.generation, (SELECT max(c.seq)::text FROM manager_checkpoints c WHERE c.generation = g.generation) AS last,
              -- every event below the first one not projected yet (none: the last event) is projected
              coalesce((SELECT min(e.seq) - 1 FROM events e WHERE ${notProjectedSql('e', 'g.generation')}), (SELECT max(e.seq) FROM events e))::text AS projected,
              -- versions are complete from there (a generation that had states before they were kept)
              coalesce((SELECT d.seq FROM derived_versions_start d WHERE d.generation = g.generation), 0)::text AS from
       FROM (SELECT ${ACTIVE_GENERATION} AS generation) g`,
    );
    if (!state || state.projected === null) return null;
    const last = state.last === null ? null : BigInt(state.last);
    const step = this.every;
    const first = ((BigInt(state.from) + step - 1n) / step) * step;
    const seq = last === null ? (first > 0n ? first : step) : last + step;
    if (seq > BigInt(state.projected)) return null;
    return { seq: String(seq), rows: await this.build(q, state.generation, last, seq) };
  }

  private async build(q: QueryRunner, generation: number, from: bigint | null, seq: bigint): Promise<number> {
    await q.query(`INSERT INTO manager_checkpoints (generation, seq) VALUES ($1, $2)`, [generation, String(seq)]);
    const [row]: { n: number }[] = await q.query(
      `WITH kept AS (
         INSERT INTO manager_checkpoint_totals (generation, seq, cluster, manager, identities, objects, fields)
         SELECT $1, $3::bigint, d.cluster, d.manager, d.identities, sum(d.objects), sum(d.fields)
         FROM (${versionSumsFromCheckpoint('$1', '$2::bigint', '$3::bigint')}) d
         GROUP BY d.cluster, d.manager, d.identities
         HAVING sum(d.objects) <> 0 OR sum(d.fields) <> 0
         RETURNING 1
       )
       SELECT count(*)::integer AS n FROM kept`,
      [generation, from === null ? null : String(from), String(seq)],
    );
    return row!.n;
  }
}
