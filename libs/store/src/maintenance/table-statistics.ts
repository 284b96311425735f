import type { DataSource } from 'typeorm';

/** One table's activity as Postgres's cumulative statistics have it. */
export interface TableActivity {
  readonly table: string;
  /** Rows at the last ANALYZE or VACUUM (`pg_class.reltuples`); -1 (or 0) when never counted, taken as none. */
  readonly rowsWhenCounted: number;
  /** Rows inserted, updated or deleted since the last ANALYZE (`n_mod_since_analyze`). */
  readonly changedSinceAnalyze: number;
}

/** When a table's planner statistics are stale enough to refresh. */
export interface AnalyzePolicy {
  /** Changed rows below this never trigger an ANALYZE (small tables plan well enough without). */
  readonly minChangedRows: number;
  /** Then, changed rows as a share of the rows last counted: 0.5 analyzes again once a table has grown by half. */
  readonly changedShare: number;
}

/**
 * Growth by half: a table filled from empty is analyzed at 1,000, 2,500, 4,750 … rows, eleven times
 * on the way to 200,000, each ANALYZE reading a sample of fixed size.
 */
export const DEFAULT_ANALYZE_POLICY: AnalyzePolicy = { minChangedRows: 1_000, changedShare: 0.5 };

/** The tables whose statistics are due, in the order given. */
export function tablesDueForAnalyze(tables: readonly TableActivity[], policy: AnalyzePolicy = DEFAULT_ANALYZE_POLICY): string[] {
  return tables
    .filter((t) => t.changedSinceAnalyze >= policy.minChangedRows + policy.changedShare * Math.max(t.rowsWhenCounted, 0))
    .map((t) => t.table);
}

export interface StatisticsRefresh {
  /** Tables ANALYZE ran on; Postgres skips one another session holds locked (it is due again next round). */
  readonly attempted: readonly string[];
}

/**
 * Keeps the planner's statistics of this schema's tables in step with their growth. Postgres's
 * autovacuum analyzes a table after 10 % of it changed, but looks only once a minute
 * (`autovacuum_naptime`): while a cluster is first listed the projection tables grow from nothing to
 * hundreds of thousands of rows inside that minute with no column statistics, so every condition gets
 * Postgres's default selectivity (`generation = 1` matches 0.5 % of the rows, not all) and an object
 * list's page of 500 read the whole table: 26.8 ms against 0.4 ms analyzed, at 50,000 objects. The
 * worker runs this every few seconds on the maintenance lane (not in the embedded all-in-one, whose
 * PGlite has no autovacuum either: see the worker's service).
 *
 * Only tables the database user may analyze (it owns them, directly or by role): Postgres answers any
 * other with a warning and no statistics, which would repeat every round. Plain tables only: the
 * event log's partitions are analyzed one by one, its partitioned parent (which autovacuum leaves
 * alone too) not. An ANALYZE holds its table's SHARE UPDATE EXCLUSIVE lock while it samples (well
 * under a second for a few hundred thousand rows): DDL on the table, a migration or partition
 * maintenance, waits that long.
 */
export class TableStatistics {
  constructor(
    private readonly dataSource: DataSource,
    private readonly policy: AnalyzePolicy = DEFAULT_ANALYZE_POLICY,
  ) {}

  async refresh(): Promise<StatisticsRefresh> {
    const rows: { table: string; counted: number; changed: string }[] = await this.dataSource.query(
      `SELECT s.relname AS "table", c.reltuples AS counted, s.n_mod_since_analyze AS changed
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
       WHERE s.schemaname = current_schema() AND c.relkind = 'r' AND pg_has_role(c.relowner, 'USAGE')
       ORDER BY s.relname`,
    );
    const due = tablesDueForAnalyze(rows.map((r) => ({ table: r.table, rowsWhenCounted: Number(r.counted), changedSinceAnalyze: Number(r.changed) })), this.policy);
    const attempted: string[] = [];
    for (const table of due) {
      try {
        // SKIP_LOCKED: a table another session holds (a migration, a manual VACUUM FULL) waits for the next round.
        await this.dataSource.query(`ANALYZE (SKIP_LOCKED) ${quoteIdentifier(table)}`);
        attempted.push(table);
      } catch (e) {
        // Dropped since it was listed (a partition past the retention): nothing to analyze.
        if ((e as { code?: string }).code !== UNDEFINED_TABLE) throw e;
      }
    }
    return { attempted };
  }
}

const UNDEFINED_TABLE = '42P01';

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
