import type { DataSource } from 'typeorm';
import { inTransaction } from '../database/transaction.util.js';
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

  /** Starts a rebuild in a fresh generation (a rebuild left half-done by a crash is discarded first). */
  async beginRebuild(): Promise<number> {
    const generation = await inTransaction(this.dataSource, async (q) => {
      const [row]: { active: number }[] = await q.query(`SELECT active FROM projection_generations WHERE projection = $1 FOR UPDATE`, [PROJECTION]);
      const next = row!.active + 1;
      await q.query(`UPDATE projection_generations SET building = $2, updated_at = now() WHERE projection = $1`, [PROJECTION, next]);
      return next;
    });
    await this.drop(generation);
    return generation;
  }

  /** Makes `generation` the one queries read (in one statement), then drops the previous one. */
  async swapIn(generation: number): Promise<void> {
    const previous = await inTransaction(this.dataSource, async (q) => {
      const [row]: { active: number; building: number | null }[] = await q.query(
        `SELECT active, building FROM projection_generations WHERE projection = $1 FOR UPDATE`,
        [PROJECTION],
      );
      if (row!.building !== generation) throw new Error(`generation ${generation} is not being built (building: ${row!.building})`);
      await q.query(`UPDATE projection_generations SET active = $2, building = NULL, updated_at = now() WHERE projection = $1`, [PROJECTION, generation]);
      return row!.active;
    });
    await this.drop(previous);
  }

  private async drop(generation: number): Promise<void> {
    for (const table of ['field_transitions', 'manager_objects', 'ownership_versions', 'ownership_states']) {
      await this.dataSource.query(`DELETE FROM ${table} WHERE generation = $1`, [generation]);
    }
    await this.dataSource.query(`DELETE FROM projection_checkpoints WHERE projection = $1`, [ownershipCheckpoint(generation)]);
  }
}
