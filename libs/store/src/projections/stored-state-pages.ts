import type { QueryRunner } from 'typeorm';
import type { ObjectOwnershipState } from '../../../audit/src/index.js';
import { STATE_COLUMNS, stateFromRow, type StateRow } from './state-row.js';

/** States read per round trip. */
const PAGE = 1_000;

/** One stored state and the generation it belongs to. */
export interface StoredState {
  readonly generation: number;
  readonly state: ObjectOwnershipState;
}

/**
 * Every stored state of every generation, decoded, a page at a time in (generation, object id)
 * order: what the upgrades that fill a derived table from the states walk.
 */
export async function forEachStoredStatePage(q: QueryRunner, visit: (page: readonly StoredState[]) => Promise<void>): Promise<void> {
  let after: [number, string] = [-1, ''];
  for (;;) {
    const rows: (StateRow & { generation: number })[] = await q.query(
      `SELECT s.generation, ${STATE_COLUMNS} FROM ownership_states s
       WHERE (s.generation, s.object_id) > ($1::integer, $2::text) ORDER BY s.generation, s.object_id LIMIT ${PAGE}`,
      after,
    );
    if (rows.length === 0) return;
    await visit(rows.map((r) => ({ generation: r.generation, state: stateFromRow(r) })));
    const last = rows[rows.length - 1]!;
    after = [last.generation, last.object_id];
  }
}
