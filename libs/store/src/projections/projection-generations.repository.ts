import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { inTransaction } from '../database/transaction.util.js';
import { MANAGER_CHECKPOINTS_LOCK } from '../maintenance/manager-checkpoints.js';
import { MANAGER_TOTALS_LOCK } from '../maintenance/manager-totals-compaction.js';
import { ownershipCheckpoint } from './ownership-projection.store.js';

const PROJECTION = 'ownership';

/** Generations of the ownership tables: queries read `active`; a full replay fills `building`, then swaps it in. */
export class ProjectionGenerationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async active(): Promise<number> {
    const rows: { active: number }[] = await this.dataSource.query(`SELECT active FROM projection_generations WHERE projection = $1`, [PROJECTION]);
    if (!rows[0]) throw new Error('projection_generations has no ownership row (migrations not run?)');
    return rows[0].active;
  }

  /**
   * Starts a rebuild in a fresh generation. Every generation but the active one is discarded first:
   * a rebuild left half-done by a crash, and rows an append folded into a generation just swapped out.
   */
  async beginRebuild(): Promise<number> {
    const { active, next } = await inTransaction(this.dataSource, async (q) => {
      const [row]: { active: number }[] = await q.query(`SELECT active FROM projection_generations WHERE projection = $1 FOR UPDATE`, [PROJECTION]);
      const next = row!.active + 1;
      await q.query(`UPDATE projection_generations SET building = $2, updated_at = now() WHERE projection = $1`, [PROJECTION, next]);
      return { active: row!.active, next };
    });
    await this.dropAllBut(active);
    return next;
  }

  /** Makes `generation` the one queries read (in one statement), then drops every other one. */
  async swapIn(generation: number): Promise<void> {
    await inTransaction(this.dataSource, async (q) => {
      const [row]: { active: number; building: number | null }[] = await q.query(
        `SELECT active, building FROM projection_generations WHERE projection = $1 FOR UPDATE`,
        [PROJECTION],
      );
      if (row!.building !== generation) throw new Error(`generation ${generation} is not being built (building: ${row!.building})`);
      await q.query(`UPDATE projection_generations SET active = $2, building = NULL, updated_at = now() WHERE projection = $1`, [PROJECTION, generation]);
    });
    await this.dropAllBut(generation);
  }

  /** Deletes the rows and checkpoints of every generation but `kept`. */
  private async dropAllBut(kept: number): Promise<void> {
    // The index versions' checkpoints (both axes) first: the versions' delete then has none to take (its triggers group only positions below one).
    await this.dropCheckpointsBut(kept);
    for (const table of ['field_transitions', 'manager_objects', 'object_findings', 'findings_versions', 'manager_objects_versions', 'derived_versions_start', 'ownership_versions', 'ownership_states']) {
      await this.dataSource.query(`DELETE FROM ${table} WHERE generation <> $1`, [kept]);
    }
    // After the index (whose delete adds the totals' last parts), under the compaction's lock (`MANAGER_TOTALS_LOCK` says why).
    await inTransaction(this.dataSource, async (q) => {
      await q.query(`SELECT pg_advisory_xact_lock($1)`, [MANAGER_TOTALS_LOCK]);
      await q.query(`DELETE FROM manager_totals WHERE generation <> $1`, [kept]);
    });
    await this.dataSource.query(`DELETE FROM projection_checkpoints WHERE projection LIKE 'ownership@%' AND projection <> $1`, [ownershipCheckpoint(kept)]);
  }

  /**
   * Deletes the manager checkpoints of every generation but `kept` holding the builder's lock, so that
   * a build begun on the generation active before (it reads the active one under the lock) commits
   * first and its checkpoint goes too, and a build after reads the kept one. The lock is only tried,
   * as the builder tries it: batches take it shared, and a waiting exclusive request would queue every
   * batch behind the longest transaction holding it. Past `CHECKPOINT_LOCK_WAIT_MS` the checkpoints are
   * deleted without it: a build racing the swap may then leave one of a retired generation, which the
   * versions' delete takes away where that generation has versions (their triggers), or the next drop.
   */
  private async dropCheckpointsBut(kept: number): Promise<void> {
    const deadline = Date.now() + CHECKPOINT_LOCK_WAIT_MS;
    for (;;) {
      const dropped = await inTransaction(this.dataSource, async (q) => {
        const [{ locked }]: { locked: boolean }[] = await q.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [MANAGER_CHECKPOINTS_LOCK]);
        if (!locked && Date.now() < deadline) return false;
        for (const table of ['manager_checkpoints', 'manager_time_checkpoints']) await q.query(`DELETE FROM ${table} WHERE generation <> $1`, [kept]);
        return true;
      });
      if (dropped) return;
      await sleep(CHECKPOINT_LOCK_RETRY_MS);
    }
  }
}

/** How long a drop tries the checkpoint builder's lock, and how often. */
const CHECKPOINT_LOCK_WAIT_MS = 10_000;
const CHECKPOINT_LOCK_RETRY_MS = 25;
