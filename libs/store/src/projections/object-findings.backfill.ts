import type { QueryRunner } from 'typeorm';
import { fieldFindings } from '../../../audit/src/index.js';
import { forEachStoredStatePage } from './stored-state-pages.js';

/**
 * Fills `object_findings` from the stored states of every generation (the upgrade to stored
 * findings): each state's findings computed by the audit lib. Returns how many objects have findings.
 */
export async function backfillObjectFindings(q: QueryRunner): Promise<number> {
  let withFindings = 0;
  await forEachStoredStatePage(q, async (page) => {
    const found = page
      .map(({ generation, state }) => ({ generation, object_id: state.objectId, cluster: state.cluster, findings: fieldFindings(state) }))
      .filter((r) => r.findings.length > 0);
    if (found.length === 0) return;
    await q.query(
      `INSERT INTO object_findings (generation, object_id, cluster, findings)
       SELECT d.* FROM json_to_recordset($1::json) AS d(generation integer, object_id text, cluster text, findings json)
       ON CONFLICT (generation, object_id) DO UPDATE SET findings = EXCLUDED.findings`,
      [JSON.stringify(found)],
    );
    withFindings += found.length;
  });
  return withFindings;
}
