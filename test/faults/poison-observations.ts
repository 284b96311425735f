import type { FaultHarness } from './fault-harness.js';

// A failed batch without touching the service: a trigger on `observations_seen` (every ingested
// observation inserts a row there) raises an error for the objects listed in `fault_injection`,
// with the SQLSTATE given per object: a data error is permanent, a serialization failure transient.

/** Postgres' class 22 (data exception): no retry can succeed. */
export const PERMANENT = '22000';
/** Postgres' serialization_failure: the next try may succeed. */
export const TRANSIENT = '40001';

export async function installPoison(h: FaultHarness): Promise<void> {
  await h.sql(`CREATE TABLE IF NOT EXISTS fault_injection (uid text PRIMARY KEY, sqlstate text NOT NULL)`);
  await h.sql(`
    CREATE OR REPLACE FUNCTION fault_injection_raise() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE code text;
    BEGIN
      SELECT f.sqlstate INTO code FROM objects o JOIN fault_injection f ON f.uid = o.uid WHERE o.id = NEW.object_id;
      IF code IS NOT NULL THEN
        RAISE EXCEPTION 'fault suite: observation of object % refused (%)', NEW.object_id, code USING ERRCODE = code;
      END IF;
      RETURN NEW;
    END $$`);
  await h.sql(`CREATE OR REPLACE TRIGGER fault_injection BEFORE INSERT ON observations_seen FOR EACH ROW EXECUTE FUNCTION fault_injection_raise()`);
}

/** Every observation of these objects fails with `sqlstate` from now on. */
export async function poison(h: FaultHarness, uids: readonly string[], sqlstate: string): Promise<void> {
  for (const uid of uids) await h.sql(`INSERT INTO fault_injection (uid, sqlstate) VALUES ($1, $2) ON CONFLICT (uid) DO UPDATE SET sqlstate = $2`, [uid, sqlstate]);
}

export async function heal(h: FaultHarness): Promise<void> {
  await h.sql(`DELETE FROM fault_injection`);
}

/** uids of `uids` with no row in `dead_letters`. */
export async function notDeadLettered(h: FaultHarness, uids: readonly string[]): Promise<string[]> {
  const found = new Set((await h.sql<{ uid: string }>(`SELECT DISTINCT uid FROM dead_letters WHERE uid = ANY($1)`, [uids])).map((r) => r.uid));
  return uids.filter((u) => !found.has(u));
}
