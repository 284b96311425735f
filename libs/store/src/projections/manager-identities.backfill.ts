import type { QueryRunner } from 'typeorm';
import { managerIndexRows } from '../../../audit/src/index.js';
import { managerObjectsRow } from './ownership-projection.store.js';
import { forEachStoredStatePage } from './stored-state-pages.js';

/**
 * Fills the identities and per-identity field counts of every `manager_objects` row from the stored
 * states of every generation (the upgrade that added them): each state's rows computed by the audit
 * lib. Returns how many rows it wrote.
 */
export async function backfillManagerIdentities(q: QueryRunner): Promise<number> {
  let written = 0;
  await forEachStoredStatePage(q, async (page) => {
    const index = page.flatMap(({ generation, state }) => managerIndexRows(state).map((m) => ({ generation, ...managerObjectsRow(state.objectId, state, m) })));
    if (index.length === 0) return;
    const [{ n }]: { n: number }[] = await q.query(
      `WITH d AS (SELECT * FROM json_to_recordset($1::json) AS d(generation integer, manager text, object_id text, identities json, identity_field_count integer)),
            u AS (UPDATE manager_objects m SET identities = d.identities, identity_field_count = d.identity_field_count
                  FROM d WHERE m.generation = d.generation AND m.manager = d.manager AND m.object_id = d.object_id RETURNING 1)
       SELECT count(*)::integer AS n FROM u`,
      [JSON.stringify(index)],
    );
    written += n;
  });
  return written;
}
