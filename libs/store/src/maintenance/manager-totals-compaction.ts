import type { DataSource, QueryRunner } from 'typeorm';
import { inTransaction } from '../database/transaction.util.js';

/**
 * Held (for its transaction) by a compaction and by the deletes of retired generations' totals: a
 * compaction that folded a retired generation's parts commits before such a delete takes its
 * snapshot, or starts after it, so the folded row never outlives the delete (a generation number
 * a failed rebuild left behind is used again by the next one).
 */
export const MANAGER_TOTALS_LOCK = 7_291_003;

/** What one compaction did. */
export interface CompactionResult {
  /** Rows of `manager_totals` folded, and the rows they became. */
  readonly folded: number;
  readonly kept: number;
}

/**
 * Folds each key's parts in `manager_totals` into one row (migration `ManagerTotals` says what the
 * parts are): every key with more than one row, in one statement. A part a batch commits meanwhile
 * is not in the statement's snapshot and stays as it is; two compactions at once fold each part
 * once (the second skips the rows the first deleted). A key whose sums are zero is left out.
 */
export class ManagerTotalsCompaction {
  constructor(private readonly dataSource: DataSource) {}

  async run(): Promise<CompactionResult> {
    return inTransaction(this.dataSource, async (q) => {
      await q.query(`SELECT pg_advisory_xact_lock($1)`, [MANAGER_TOTALS_LOCK]);
      return this.fold(q);
    });
  }

  private async fold(q: QueryRunner): Promise<CompactionResult> {
    const [row]: { folded: number; kept: number }[] = await q.query(
      `WITH split AS (
         SELECT generation, cluster, manager, identities FROM manager_totals GROUP BY generation, cluster, manager, identities HAVING count(*) > 1
       ), gone AS (
         DELETE FROM manager_totals t USING split s
         WHERE t.generation = s.generation AND t.cluster = s.cluster AND t.manager = s.manager AND t.identities IS NOT DISTINCT FROM s.identities
         RETURNING t.*
       ), kept AS (
         INSERT INTO manager_totals (generation, cluster, manager, identities, objects, fields)
         SELECT g.generation, g.cluster, g.manager, g.identities, sum(g.objects), sum(g.fields)
         FROM gone g GROUP BY g.generation, g.cluster, g.manager, g.identities
         HAVING sum(g.objects) <> 0 OR sum(g.fields) <> 0
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM gone)::integer AS folded, (SELECT count(*) FROM kept)::integer AS kept`,
    );
    return row!;
  }
}
