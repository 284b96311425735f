import type { QueryRunner } from 'typeorm';
import { fieldFindings, managerIndexRows } from '../../../audit/src/index.js';
import { managerObjectsRow } from './ownership-projection.store.js';
import { forEachStoredStatePage } from './stored-state-pages.js';

/**
 * Fills of derived rows from the stored states, for databases that had states before the rows
 * existed. Each runs once (recorded in `derived_backfills`), after the migrations, in the
 * migrator's lock; the audit lib computes the rows (migrations run SQL only).
 */
const BACKFILLS: readonly { readonly name: string; readonly run: (q: QueryRunner) => Promise<unknown> }[] = [
  { name: 'findings-and-manager-identities', run: backfillFindingsAndManagerIdentities },
  { name: 'derived-versions', run: backfillDerivedVersions },
];

/** Runs the fills not recorded yet, each in one transaction on `runner` (the migrator's connection). */
export async function runDerivedBackfills(runner: QueryRunner): Promise<void> {
  const done = new Set(((await runner.query(`SELECT name FROM derived_backfills`)) as { name: string }[]).map((r) => r.name));
  for (const b of BACKFILLS) {
    if (done.has(b.name)) continue;
    await runner.startTransaction();
    try {
      await b.run(runner);
      await runner.query(`INSERT INTO derived_backfills (name) VALUES ($1)`, [b.name]);
      await runner.commitTransaction();
    } catch (e) {
      await runner.rollbackTransaction();
      throw e;
    }
  }
}

/**
 * Every stored state's findings (`object_findings`) and manager index rows with their identities
 * (`manager_objects`, written over), in one pass over the states of every generation. Returns how
 * many states it read.
 */
export async function backfillFindingsAndManagerIdentities(q: QueryRunner): Promise<number> {
  let states = 0;
  await forEachStoredStatePage(q, async (page) => {
    states += page.length;
    const findings = page
      .map(({ generation, state }) => ({ generation, object_id: state.objectId, cluster: state.cluster, findings: fieldFindings(state) }))
      .filter((r) => r.findings.length > 0);
    const managers = page.flatMap(({ generation, state }) => managerIndexRows(state).map((m) => ({ generation, ...managerObjectsRow(state.objectId, state, m) })));
    await q.query(
      `WITH f AS (
         INSERT INTO object_findings (generation, object_id, cluster, findings)
         SELECT d.* FROM json_to_recordset($1::json) AS d(generation integer, object_id text, cluster text, findings json)
         ON CONFLICT (generation, object_id) DO UPDATE SET findings = EXCLUDED.findings
       )
       INSERT INTO manager_objects (generation, manager, object_id, cluster, kind, namespace, field_count, identities, identity_field_count)
       SELECT d.* FROM json_to_recordset($2::json) AS d(generation integer, manager text, object_id text, cluster text, kind text, namespace text,
         field_count integer, identities json, identity_field_count integer)
       ON CONFLICT (generation, manager, object_id) DO UPDATE
         SET field_count = EXCLUDED.field_count, identities = EXCLUDED.identities, identity_field_count = EXCLUDED.identity_field_count`,
      [JSON.stringify(findings), JSON.stringify(managers)],
    );
  });
  return states;
}

/**
 * The versions of a database that had states before they were kept: each object's stored findings
 * and manager index rows as versions from its newest event on, its state marked as having them
 * (`versions_through`), and per generation the sequence from which its versions are complete (its
 * newest projected event; `at=` before it still folds). After `backfillFindingsAndManagerIdentities`,
 * which may have just filled the stored rows. Runs in the fill's transaction.
 */
export async function backfillDerivedVersions(q: QueryRunner): Promise<void> {
  // Workers of this version may already be projecting: they wait (their state writes) until the fill
  // commits, and an object one of them has written versions for keeps its own.
  await q.query(`LOCK TABLE ownership_states IN SHARE ROW EXCLUSIVE MODE`);
  await q.query(
    `INSERT INTO findings_versions (generation, object_id, seq, until_seq, cluster, findings, at)
     SELECT f.generation, f.object_id, s.last_seq, NULL, f.cluster, f.findings, date_trunc('milliseconds', s.last_at)
     FROM object_findings f JOIN ownership_states s ON s.generation = f.generation AND s.object_id = f.object_id
     WHERE s.versions_through IS NULL
       AND NOT EXISTS (SELECT 1 FROM findings_versions v WHERE v.generation = f.generation AND v.object_id = f.object_id)
     ON CONFLICT (generation, object_id, seq) DO NOTHING`,
  );
  await q.query(
    `INSERT INTO manager_objects_versions (generation, object_id, manager, seq, until_seq, cluster, field_count, identities, identity_field_count, at)
     SELECT m.generation, m.object_id, m.manager, s.last_seq, NULL, m.cluster, m.field_count, m.identities, m.identity_field_count, date_trunc('milliseconds', s.last_at)
     FROM manager_objects m JOIN ownership_states s ON s.generation = m.generation AND s.object_id = m.object_id
     WHERE s.versions_through IS NULL
       AND NOT EXISTS (SELECT 1 FROM manager_objects_versions v WHERE v.generation = m.generation AND v.object_id = m.object_id)
     ON CONFLICT (generation, object_id, manager, seq) DO NOTHING`,
  );
  await q.query(`UPDATE ownership_states SET versions_through = last_seq WHERE versions_through IS NULL`);
  // As of a time, from the newest of those events (the objects whose events went back in time are folded anyway).
  await q.query(
    `INSERT INTO derived_versions_start (generation, seq, at)
     SELECT generation, max(last_seq), date_trunc('milliseconds', max(last_at)) FROM ownership_states GROUP BY generation ON CONFLICT DO NOTHING`,
  );
}
