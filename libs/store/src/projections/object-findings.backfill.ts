import type { QueryRunner } from 'typeorm';
import { fieldFindings } from '../../../audit/src/index.js';
import { STATE_COLUMNS, stateFromRow, type StateRow } from './state-row.js';

/** States read per round trip while filling `object_findings`. */
const PAGE = 1_000;

/**
 * Fills `object_findings` from the stored states of every generation (the upgrade to stored
 * findings): each state decoded and its findings computed by the audit lib, a page at a time.
 * Returns how many objects have findings.
 */
export async function backfillObjectFindings(q: QueryRunner): Promise<number> {
  let after: [number, string] = [-1, ''];
  let withFindings = 0;
  for (;;) {
    const rows: (StateRow & { generation: number })[] = await q.query(
      `SELECT s.generation, ${STATE_COLUMNS} FROM ownership_states s
       WHERE (s.generation, s.object_id) > ($1::integer, $2::text) ORDER BY s.generation, s.object_id LIMIT ${PAGE}`,
      after,
    );
    if (rows.length === 0) return withFindings;
    const found = rows
      .map((r) => ({ generation: r.generation, object_id: r.object_id, cluster: r.cluster, findings: fieldFindings(stateFromRow(r)) }))
      .filter((r) => r.findings.length > 0);
    if (found.length > 0) {
      await q.query(
        `INSERT INTO object_findings (generation, object_id, cluster, findings)
         SELECT d.* FROM json_to_recordset($1::json) AS d(generation integer, object_id text, cluster text, findings json)
         ON CONFLICT (generation, object_id) DO UPDATE SET findings = EXCLUDED.findings`,
        [JSON.stringify(found)],
      );
    }
    withFindings += found.length;
    const last = rows[rows.length - 1]!;
    after = [last.generation, last.object_id];
  }
}
