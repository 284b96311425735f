import type { DataSource, QueryRunner } from 'typeorm';
import {
  encodeOwnedFields,
  type FindingsVersion,
  type ManagerIndexRow,
  type ManagerIndexVersion,
  type ObjectOwnershipState,
  type OwnershipProjectionStore,
  type OwnershipVersion,
  type ProjectedBatch,
  ProjectionConflictError,
} from '../../../audit/src/index.js';
import { inTransaction } from '../database/transaction.util.js';
import { CheckpointRepository } from '../events/checkpoint.repository.js';
import type { EventPosition } from '../events/event-position.js';
import { schemaChoiceId, schemaChoiceIds } from './schema-choices.js';
import { STATE_COLUMNS, stateFromRow, stateRowOf, type StateRow } from './state-row.js';
import { transitionRow } from './transition-row.js';
import { recordsetParam } from './recordset-param.js';

/** The checkpoint name of the ownership projection of one generation. */
export const ownershipCheckpoint = (generation: number): string => `ownership@${generation}`;

/**
 * {@link OwnershipProjectionStore} on Postgres, for one generation of the tables. `save` writes the
 * states, the transitions, the ownership versions, the manager index rows and findings that changed and (when `position` is set) the checkpoint in one
 * transaction, so the checkpoint never passes an event whose projection is not stored.
 *
 * Appends fold their objects' events as they store them (holding the objects' rows), and the log
 * walk folds the others: a state is written only over the one it was folded from (`foldedFrom`,
 * compared by `last_seq`), else the whole save fails with {@link ProjectionConflictError}.
 */
export class PostgresOwnershipProjectionStore implements OwnershipProjectionStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly generation: number,
    /** The log position of the batch's last event; `null` for batches outside the log walk (appends, rewrites of objects). */
    private readonly position: EventPosition | null,
    /** Run in this transaction (an append's, a rewrite's) instead of one of its own. */
    private readonly tx: QueryRunner | null = null,
  ) {}

  async load(objectIds: readonly string[]): Promise<ReadonlyMap<string, ObjectOwnershipState>> {
    if (objectIds.length === 0) return new Map();
    const rows: StateRow[] = await (this.tx ?? this.dataSource).query(
      `SELECT ${STATE_COLUMNS} FROM ownership_states s WHERE s.generation = $1 AND s.object_id = ANY($2::text[])`,
      [this.generation, objectIds],
    );
    return new Map(rows.map((r) => [r.object_id, stateFromRow(r)]));
  }

  async save(batch: ProjectedBatch): Promise<void> {
    const schemaIds = await schemaChoiceIds(this.dataSource, batch.states.map((s) => s.schema), this.tx ?? undefined);
    const write = async (q: QueryRunner) => {
      // A walk page whose events were all folded at append changes no state (and so no other row): only its checkpoint moves.
      const written = batch.states.length > 0 ? await writeBatch(q, this.generation, batch, schemaIds) : 0;
      if (written < batch.states.length) throw new ProjectionConflictError(batch.states.length - written);
      if (this.position) await new CheckpointRepository(this.dataSource).advance(ownershipCheckpoint(this.generation), this.position, q);
    };
    if (this.tx) await write(this.tx);
    else await inTransaction(this.dataSource, write);
  }
}

/**
 * The active generation and the stored states of `objectIds` in it, in one statement, inside an
 * append's transaction. A generation swapped out meanwhile may still get this append's rows: the
 * live walk folds its events into the new one (they commit after the swap), and the retired
 * generation's rows are deleted by the next swap or rebuild.
 */
export async function activeStates(q: QueryRunner, objectIds: readonly string[]): Promise<{ generation: number; states: Map<string, ObjectOwnershipState> }> {
  const rows: (Omit<StateRow, 'object_id'> & { object_id: string | null; generation: number })[] = await q.query(
    `WITH g AS (SELECT active FROM projection_generations WHERE projection = 'ownership')
     SELECT g.active AS generation, ${STATE_COLUMNS}
     FROM g LEFT JOIN ownership_states s ON s.generation = g.active AND s.object_id = ANY($1::text[])`,
    [objectIds],
  );
  if (rows.length === 0) throw new Error('projection_generations has no ownership row (migrations not run?)');
  const states = new Map<string, ObjectOwnershipState>();
  for (const r of rows) if (r.object_id !== null) states.set(r.object_id, stateFromRow(r as StateRow));
  return { generation: rows[0]!.generation, states };
}

/** Deletes every projection row of `objectIds` in `generation` (a rewrite of those objects from their events, which holds their rows). */
export async function deleteProjectionRows(q: QueryRunner, generation: number, objectIds: readonly string[]): Promise<void> {
  if (objectIds.length > 0) await q.query(DELETE_OBJECTS_ROWS, [generation, objectIds]);
}

/** Every projection row of some objects ($2) in a generation ($1). */
const DELETE_OBJECTS_ROWS = `
WITH t AS (DELETE FROM field_transitions WHERE generation = $1 AND object_id = ANY($2::text[])),
     v AS (DELETE FROM ownership_versions WHERE generation = $1 AND object_id = ANY($2::text[])),
     m AS (DELETE FROM manager_objects WHERE generation = $1 AND object_id = ANY($2::text[])),
     f AS (DELETE FROM object_findings WHERE generation = $1 AND object_id = ANY($2::text[])),
     fv AS (DELETE FROM findings_versions WHERE generation = $1 AND object_id = ANY($2::text[])),
     mv AS (DELETE FROM manager_objects_versions WHERE generation = $1 AND object_id = ANY($2::text[]))
DELETE FROM ownership_states WHERE generation = $1 AND object_id = ANY($2::text[])`;

/**
 * A batch in one statement ($1 the generation, then one JSON parameter per table): each state
 * written over the stored one it was folded from (`folded_from`, its `last_seq`) or inserted where
 * it was folded from none; the manager index rows that changed (the managers gone deleted, the
 * others written over); new transitions and versions; the findings of the objects whose findings
 * changed (written over, or deleted where none are left), and the versions of both (the one in
 * force ended where a new one starts). Returns how many states were written: fewer
 * means another writer got there first (the caller rolls the whole batch back). The parts touch
 * different rows, so one statement's snapshot serves them all.
 *
 * Closing versions: the versions a batch ends are found key by key and their ends written as an
 * upsert (`INSERT … SELECT` the rows found `ON CONFLICT … DO UPDATE`), so Postgres reaches every one
 * through the primary key whatever its statistics say. Planned as a join (`UPDATE … FROM` the batch's
 * keys), it chose to scan every version of the generation once per batch whenever its statistics lagged
 * behind a fast-growing table, as they do while a cluster is first listed: 2.4 s a batch at 20,000
 * objects, Postgres's CPU five times that of the projection without versions. The lookup is a LATERAL
 * subquery kept from being flattened into a join (`OFFSET 0`), so it runs once per key on the index.
 * The (object, manager) key is written as one row value bounded on both sides (the same rows as the
 * two equalities), a range only the primary key (generation, object_id, manager, seq) serves: written
 * as equalities, the planner took the index by (generation, manager) (which
 * `GET /v1/managers/{name}/fields?at=` reads) while its statistics said the table was small, and
 * walked every version of that manager once per key (1.6–2.4 s a batch of 500 ConfigMaps, all with
 * the one manager, at 20,000 objects; 6–9 s for 500 keys against 80,000 versions, where the primary key
 * takes milliseconds). Looked up by the object alone, it read every version of the object, closed
 * ones of other managers included (0.44 s for 500 objects of 2,000 closed versions each).
 * The update keeps the old statement's condition (a version another transaction closed meanwhile is
 * left as it is). One difference under a concurrent writer: a version another transaction deleted
 * after this statement's snapshot is written back. Writers of the same object are caught by the
 * states' compare-and-set, which rolls the batch back; the one window is a batch committing on a
 * retired generation while the swap deletes it (`dropAllBut` empties the version tables before the
 * states), which leaves rows there as any late write to a retired generation does, until the next swap.
 *
 * Deletes: the rows a batch deletes (managers gone, findings gone) are picked by the batch's object
 * ids as one array (`object_id = ANY (ARRAY(…))`), which Postgres reads through the object-id index
 * whatever its statistics say; joined to the batch instead (`DELETE … USING`), it scanned every row of
 * the generation once per batch holding a deletion.
 */
const WRITE_PROJECTED_BATCH = `
WITH r AS (
  SELECT * FROM json_to_recordset($2::json) AS r(object_id text, cluster text, uid text, api_group text, api_version text, kind text, namespace text,
    name text, deleted boolean, first_seq bigint, first_at timestamptz, last_seq bigint, last_at timestamptz, state_compressed text, schema_id integer, folded_from bigint,
    time_ordered boolean)
), updated AS (
  -- Ordered through the new last event while it was through the stored one and the batch kept time order (the SET reads the stored row).
  UPDATE ownership_states s SET
    cluster = r.cluster, uid = r.uid, api_group = r.api_group, api_version = r.api_version, kind = r.kind, namespace = r.namespace, name = r.name,
    deleted = r.deleted, first_seq = r.first_seq, first_at = r.first_at, last_seq = r.last_seq, last_at = r.last_at,
    state = NULL, state_compressed = decode(r.state_compressed, 'base64'), schema_id = r.schema_id,
    versions_through = r.last_seq, ordered_through = CASE WHEN r.time_ordered AND s.ordered_through = s.last_seq THEN r.last_seq END
  FROM r WHERE s.generation = $1 AND s.object_id = r.object_id AND s.last_seq = r.folded_from
  RETURNING 1
), inserted AS (
  INSERT INTO ownership_states (generation, object_id, cluster, uid, api_group, api_version, kind, namespace, name, deleted,
                                first_seq, first_at, last_seq, last_at, state_compressed, schema_id, versions_through, ordered_through)
  SELECT $1, r.object_id, r.cluster, r.uid, r.api_group, r.api_version, r.kind, r.namespace, r.name, r.deleted,
         r.first_seq, r.first_at, r.last_seq, r.last_at, decode(r.state_compressed, 'base64'), r.schema_id, r.last_seq, CASE WHEN r.time_ordered THEN r.last_seq END
  FROM r WHERE r.folded_from IS NULL
  ON CONFLICT (generation, object_id) DO NOTHING
  RETURNING 1
), managers_gone AS (
  -- Rows only of the batch's objects, by index ("deletes" above says why the list of ids).
  DELETE FROM manager_objects m
  WHERE m.generation = $1 AND m.object_id = ANY (ARRAY(SELECT d.object_id FROM json_to_recordset($3::json) AS d(object_id text)))
    AND (m.object_id, m.manager) IN (SELECT d.object_id, d.manager FROM json_to_recordset($3::json) AS d(object_id text, manager text))
), managers AS (
  INSERT INTO manager_objects (generation, manager, object_id, cluster, kind, namespace, field_count, identities, identity_field_count)
  SELECT $1, d.* FROM json_to_recordset($4::json) AS d(manager text, object_id text, cluster text, kind text, namespace text, field_count integer,
    identities json, identity_field_count integer)
  ON CONFLICT (generation, manager, object_id) DO UPDATE
    SET field_count = EXCLUDED.field_count, identities = EXCLUDED.identities, identity_field_count = EXCLUDED.identity_field_count
), transitions AS (
  INSERT INTO field_transitions (generation, object_id, seq, ordinal, at, type, path, fields_v1_path, manager, operation, subresource, transition)
  SELECT $1, d.object_id, d.seq, d.ordinal, d.at, d.type, d.path, d.fields_v1_path, d.manager, d.operation, d.subresource, d.transition::json
  FROM json_to_recordset($5::json) AS d(object_id text, seq bigint, ordinal integer, at timestamptz, type text, path text,
    fields_v1_path text, manager text, operation text, subresource text, transition text)
  ON CONFLICT (generation, object_id, seq, ordinal) DO NOTHING
), versions AS (
  INSERT INTO ownership_versions (generation, object_id, seq, deleted, fold_required, fields)
  SELECT $1, d.object_id, d.seq, d.deleted, d.fold_required, d.fields::json
  FROM json_to_recordset($6::json) AS d(object_id text, seq bigint, deleted boolean, fold_required boolean, fields text)
  ON CONFLICT (generation, object_id, seq) DO NOTHING
), findings_gone AS (
  DELETE FROM object_findings f
  WHERE f.generation = $1 AND f.object_id = ANY (ARRAY(SELECT d.object_id FROM json_to_recordset($7::json) AS d(object_id text)))
), findings AS (
  INSERT INTO object_findings (generation, object_id, cluster, findings)
  SELECT $1, d.object_id, d.cluster, d.findings::json FROM json_to_recordset($8::json) AS d(object_id text, cluster text, findings text)
  ON CONFLICT (generation, object_id) DO UPDATE SET findings = EXCLUDED.findings
), findings_closed AS (
  -- An object's version in force ends at its first new version (findings gone included): an
  -- upsert of the rows found, not an UPDATE … FROM ("closing versions" above says why).
  INSERT INTO findings_versions (generation, object_id, seq, until_seq, cluster, findings, at, until_at)
  SELECT $1, v.object_id, v.seq, d.seq, v.cluster, v.findings, v.at, date_trunc('milliseconds', d.at)
  FROM (SELECT DISTINCT ON (object_id) object_id, seq, at FROM json_to_recordset($9::json) AS d(object_id text, seq bigint, at timestamptz) ORDER BY object_id, seq) d
  CROSS JOIN LATERAL (
    SELECT * FROM findings_versions v WHERE v.generation = $1 AND v.object_id = d.object_id AND v.until_seq IS NULL AND v.seq < d.seq OFFSET 0
  ) v
  ON CONFLICT (generation, object_id, seq) DO UPDATE SET until_seq = EXCLUDED.until_seq, until_at = EXCLUDED.until_at WHERE findings_versions.until_seq IS NULL
), findings_versioned AS (
  INSERT INTO findings_versions (generation, object_id, seq, until_seq, cluster, findings, at, until_at)
  SELECT $1, d.object_id, d.seq, d.until_seq, d.cluster, d.findings::json, date_trunc('milliseconds', d.at), date_trunc('milliseconds', d.until_at)
  FROM json_to_recordset($10::json) AS d(object_id text, seq bigint, until_seq bigint, cluster text, findings text, at timestamptz, until_at timestamptz)
  ON CONFLICT (generation, object_id, seq) DO NOTHING
), managers_closed AS (
  -- Each (object, manager) row in force ends at its first new version (the manager gone included);
  -- an upsert of the rows found, as findings_closed.
  INSERT INTO manager_objects_versions (generation, object_id, manager, seq, until_seq, cluster, field_count, identities, identity_field_count, at, until_at)
  SELECT $1, v.object_id, v.manager, v.seq, d.seq, v.cluster, v.field_count, v.identities, v.identity_field_count, v.at, date_trunc('milliseconds', d.at)
  FROM (
    SELECT DISTINCT ON (object_id, manager) object_id, manager, seq, at
    FROM json_to_recordset($11::json) AS d(object_id text, manager text, seq bigint, at timestamptz) ORDER BY object_id, manager, seq
  ) d
  CROSS JOIN LATERAL (
    -- (object, manager) as one row bounded on both sides, which only the primary key serves: see "closing versions" above.
    SELECT * FROM manager_objects_versions v
    WHERE v.generation = $1 AND (v.object_id, v.manager) >= (d.object_id, d.manager) AND (v.object_id, v.manager) <= (d.object_id, d.manager)
      AND v.until_seq IS NULL AND v.seq < d.seq OFFSET 0
  ) v
  ON CONFLICT (generation, object_id, manager, seq) DO UPDATE SET until_seq = EXCLUDED.until_seq, until_at = EXCLUDED.until_at
    WHERE manager_objects_versions.until_seq IS NULL
), managers_versioned AS (
  INSERT INTO manager_objects_versions (generation, object_id, manager, seq, until_seq, cluster, field_count, identities, identity_field_count, at, until_at)
  SELECT $1, d.object_id, d.manager, d.seq, d.until_seq, d.cluster, d.field_count, d.identities, d.identity_field_count,
         date_trunc('milliseconds', d.at), date_trunc('milliseconds', d.until_at)
  FROM json_to_recordset($12::json) AS d(object_id text, manager text, seq bigint, until_seq bigint, cluster text, field_count integer,
    identities json, identity_field_count integer, at timestamptz, until_at timestamptz)
  ON CONFLICT (generation, object_id, manager, seq) DO NOTHING
)
SELECT ((SELECT count(*) FROM updated) + (SELECT count(*) FROM inserted))::integer AS n`;

/** A `manager_objects` row: what one manager owns in one object (identities as `[operation, apiVersion, subresource]`). */
export function managerObjectsRow(objectId: string, where: { cluster: string; kind: string; namespace: string | null }, r: ManagerIndexRow) {
  return {
    manager: r.manager, object_id: objectId, cluster: where.cluster, kind: where.kind, namespace: where.namespace, field_count: r.fieldCount,
    identities: r.identities.map((i) => [i.operation, i.apiVersion, i.subresource]), identity_field_count: r.identityFieldCount,
  };
}

/** Where a version starts or ends: the event's sequence and when it was observed. */
interface VersionBound {
  readonly seq: string;
  readonly at: string;
}

/**
 * Where each of a batch's versions ends within the batch, given their keys and starts in event order:
 * at the next version of the same key, or `null` (still in force after the batch).
 */
function endsInBatch(keys: readonly string[], starts: readonly VersionBound[]): (VersionBound | null)[] {
  const ends: (VersionBound | null)[] = [];
  // Walked backwards: each key's next version is the last one seen.
  const next = new Map<string, VersionBound>();
  for (let i = keys.length - 1; i >= 0; i--) {
    ends[i] = next.get(keys[i]!) ?? null;
    next.set(keys[i]!, starts[i]!);
  }
  return ends;
}

/**
 * The batch's findings versions as rows: where each starts (every one, empty ones included: they end
 * the one before), and the non-empty ones with where they end (`endsInBatch`).
 */
function findingsVersionRows(versions: readonly FindingsVersion[]) {
  const starts = versions.map((v) => ({ object_id: v.objectId, seq: v.seq, at: v.at }));
  const ends = endsInBatch(versions.map((v) => v.objectId), versions);
  const rows = versions.flatMap((v, i) =>
    v.findings.length === 0
      ? []
      : [{ object_id: v.objectId, seq: v.seq, until_seq: ends[i]?.seq ?? null, cluster: v.cluster, findings: v.findings, at: v.at, until_at: ends[i]?.at ?? null }],
  );
  return { starts, rows };
}

/**
 * The batch's manager index versions as rows: where each (object, manager) row changes (managers
 * gone included: that ends the one before), and the new rows with where they end (`endsInBatch`).
 */
function managerVersionRows(versions: readonly ManagerIndexVersion[]) {
  const changes = versions.flatMap((v) => [...v.upserts.map((r) => ({ v, manager: r.manager, row: r })), ...v.removed.map((manager) => ({ v, manager, row: null }))]);
  const starts = changes.map(({ v, manager }) => ({ object_id: v.objectId, manager, seq: v.seq, at: v.at }));
  const ends = endsInBatch(changes.map(({ v, manager }) => `${v.objectId}\u0000${manager}`), changes.map(({ v }) => v));
  const rows = changes.flatMap(({ v, manager, row }, i) => {
    if (row === null) return [];
    const { identities, identity_field_count, field_count } = managerObjectsRow(v.objectId, v, row);
    return [{
      object_id: v.objectId, manager, seq: v.seq, until_seq: ends[i]?.seq ?? null, cluster: v.cluster, field_count, identities, identity_field_count,
      at: v.at, until_at: ends[i]?.at ?? null,
    }];
  });
  return { starts, rows };
}

async function writeBatch(q: QueryRunner, generation: number, batch: ProjectedBatch, schemaIds: ReadonlyMap<string, number>): Promise<number> {
  const states = batch.states.map((s) => ({
    ...stateRowOf(s), schema_id: schemaChoiceId(schemaIds, s.schema), folded_from: batch.foldedFrom.get(s.objectId) ?? null,
    time_ordered: !batch.outOfTimeOrder.has(s.objectId),
  }));
  const managersGone = batch.managerIndex.flatMap((c) => c.removed.map((manager) => ({ object_id: c.objectId, manager })));
  const managers = batch.managerIndex.flatMap((c) =>
    c.upserts.map((r) => managerObjectsRow(c.objectId, c, r)),
  );
  // Transitions of one event keep their order: ordinal within (object, seq).
  const ordinals = new Map<string, number>();
  const transitions = batch.transitions.map((t) => {
    const k = `${t.objectId}\u0000${t.seq}`;
    const n = ordinals.get(k) ?? 0;
    ordinals.set(k, n + 1);
    return transitionRow(t, n);
  });
  const versions = batch.versions.map((v: OwnershipVersion) => ({ object_id: v.objectId, seq: v.seq, deleted: v.deleted, fold_required: v.foldRequired, fields: encodeOwnedFields(v.fields) }));
  const findingsGone = batch.findings.filter((c) => c.findings.length === 0).map((c) => ({ object_id: c.objectId }));
  const findings = batch.findings.filter((c) => c.findings.length > 0).map((c) => ({ object_id: c.objectId, cluster: c.cluster, findings: c.findings }));
  const findingsVersions = findingsVersionRows(batch.findingsVersions);
  const managerVersions = managerVersionRows(batch.managerIndexVersions);
  const rows: { n: number }[] = await q.query(WRITE_PROJECTED_BATCH, [
    generation, recordsetParam(states), recordsetParam(managersGone), recordsetParam(managers), recordsetParam(transitions, ['transition']), recordsetParam(versions, ['fields']),
    recordsetParam(findingsGone), recordsetParam(findings, ['findings']), recordsetParam(findingsVersions.starts), recordsetParam(findingsVersions.rows, ['findings']),
    recordsetParam(managerVersions.starts), recordsetParam(managerVersions.rows),
  ]);
  return rows[0]!.n;
}
