import type { DataSource, QueryRunner } from 'typeorm';
import type { FieldTransition, ObjectOwnershipState, OwnershipProjectionStore, OwnershipVersion, ProjectedBatch } from '../../../audit/src/index.js';
import { inTransaction } from '../database/transaction.util.js';
import { CheckpointRepository } from '../events/checkpoint.repository.js';
import type { EventPosition } from '../events/event-position.js';

/** The checkpoint name of the ownership projection of one generation. */
export const ownershipCheckpoint = (generation: number): string => `ownership@${generation}`;

/**
 * {@link OwnershipProjectionStore} on Postgres, for one generation of the tables. `save` writes the
 * states, the transitions, the ownership versions, the manager index rows and (when `position` is set) the checkpoint in one
 * transaction, so the checkpoint never passes an event whose projection is not stored.
 */
export class PostgresOwnershipProjectionStore implements OwnershipProjectionStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly generation: number,
    /** The log position of the batch's last event; `null` for batches outside the log walk (one-object replays). */
    private readonly position: EventPosition | null,
    /** Replace every stored row of the batch's objects (a one-object replay) instead of adding transitions. */
    private readonly replaceObjects = false,
  ) {}

  async load(objectIds: readonly string[]): Promise<ReadonlyMap<string, ObjectOwnershipState>> {
    if (objectIds.length === 0 || this.replaceObjects) return new Map();
    const rows: { state: ObjectOwnershipState }[] = await this.dataSource.query(
      `SELECT state FROM ownership_states WHERE generation = $1 AND object_id = ANY($2::text[])`,
      [this.generation, objectIds],
    );
    return new Map(rows.map((r) => [r.state.objectId, r.state]));
  }

  async save(batch: ProjectedBatch): Promise<void> {
    await inTransaction(this.dataSource, async (q) => {
      const ids = batch.states.map((s) => s.objectId);
      if (this.replaceObjects && ids.length > 0) {
        await q.query(`DELETE FROM field_transitions WHERE generation = $1 AND object_id = ANY($2::text[])`, [this.generation, ids]);
        await q.query(`DELETE FROM ownership_versions WHERE generation = $1 AND object_id = ANY($2::text[])`, [this.generation, ids]);
      }
      await writeStates(q, this.generation, batch.states);
      await writeTransitions(q, this.generation, batch.transitions);
      await writeVersions(q, this.generation, batch.versions);
      if (this.position) await new CheckpointRepository(this.dataSource).advance(ownershipCheckpoint(this.generation), this.position, q);
    });
  }
}

async function writeStates(q: QueryRunner, generation: number, states: readonly ObjectOwnershipState[]): Promise<void> {
  if (states.length === 0) return;
  const col = <T>(f: (s: ObjectOwnershipState) => T) => states.map(f);
  await q.query(
    `INSERT INTO ownership_states AS s (generation, object_id, cluster, uid, api_group, api_version, kind, namespace, name, deleted,
                                        first_seq, first_at, last_seq, last_at, state)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                              $10::boolean[], $11::bigint[], $12::timestamptz[], $13::bigint[], $14::timestamptz[], $15::jsonb[])
     ON CONFLICT (generation, object_id) DO UPDATE SET
       cluster = EXCLUDED.cluster, uid = EXCLUDED.uid, api_group = EXCLUDED.api_group, api_version = EXCLUDED.api_version,
       kind = EXCLUDED.kind, namespace = EXCLUDED.namespace, name = EXCLUDED.name, deleted = EXCLUDED.deleted,
       first_seq = EXCLUDED.first_seq, first_at = EXCLUDED.first_at, last_seq = EXCLUDED.last_seq, last_at = EXCLUDED.last_at,
       state = EXCLUDED.state`,
    [
      generation, col((s) => s.objectId), col((s) => s.cluster), col((s) => s.uid), col((s) => s.group), col((s) => s.version),
      col((s) => s.kind), col((s) => s.namespace), col((s) => s.name), col((s) => s.deleted), col((s) => s.firstSeq),
      col((s) => s.firstAt), col((s) => s.lastSeq), col((s) => s.lastAt), col((s) => JSON.stringify(s)),
    ],
  );
  // The manager index follows the states: rebuilt for every object written.
  const ids = states.map((s) => s.objectId);
  await q.query(`DELETE FROM manager_objects WHERE generation = $1 AND object_id = ANY($2::text[])`, [generation, ids]);
  const rows: [string, string, string, string, string | null, number][] = [];
  for (const s of states) {
    const counts = new Map<string, number>();
    for (const f of s.fields) for (const m of new Set(f.owners.map((o) => o.manager))) counts.set(m, (counts.get(m) ?? 0) + 1);
    for (const [m, n] of counts) rows.push([m, s.objectId, s.cluster, s.kind, s.namespace, n]);
  }
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO manager_objects (generation, manager, object_id, cluster, kind, namespace, field_count)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::integer[])`,
    [generation, ...[0, 1, 2, 3, 4, 5].map((i) => rows.map((r) => r[i]))],
  );
}

async function writeTransitions(q: QueryRunner, generation: number, transitions: readonly FieldTransition[]): Promise<void> {
  if (transitions.length === 0) return;
  // Transitions of one event keep their order: ordinal within (object, seq).
  const ordinals = new Map<string, number>();
  const ordinal = transitions.map((t) => {
    const k = `${t.objectId}\u0000${t.seq}`;
    const n = ordinals.get(k) ?? 0;
    ordinals.set(k, n + 1);
    return n;
  });
  const col = <T>(f: (t: FieldTransition) => T) => transitions.map(f);
  await q.query(
    `INSERT INTO field_transitions (generation, object_id, seq, ordinal, at, type, path, fields_v1_path, manager, operation, subresource, transition)
     SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::integer[], $5::timestamptz[], $6::text[], $7::text[], $8::text[],
                              $9::text[], $10::text[], $11::text[], $12::jsonb[])
     ON CONFLICT (generation, object_id, seq, ordinal) DO NOTHING`,
    [
      generation, col((t) => t.objectId), col((t) => t.seq), ordinal, col((t) => t.at), col((t) => t.type), col((t) => t.path),
      col((t) => t.fieldsV1Path), col((t) => t.manager), col((t) => t.operation), col((t) => t.subresource), col((t) => JSON.stringify(t)),
    ],
  );
}

async function writeVersions(q: QueryRunner, generation: number, versions: readonly OwnershipVersion[]): Promise<void> {
  if (versions.length === 0) return;
  const col = <T>(f: (v: OwnershipVersion) => T) => versions.map(f);
  await q.query(
    `INSERT INTO ownership_versions (generation, object_id, seq, deleted, fold_required, fields, marks)
     SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::boolean[], $5::boolean[], $6::json[], $7::json[])
     ON CONFLICT (generation, object_id, seq) DO NOTHING`,
    [
      generation, col((v) => v.objectId), col((v) => v.seq), col((v) => v.deleted), col((v) => v.foldRequired),
      col((v) => JSON.stringify(v.fields)), col((v) => JSON.stringify(v.marks)),
    ],
  );
}
