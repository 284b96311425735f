import type { DataSource } from 'typeorm';
import type { Observation } from '../../../common/src/index.js';
import { decodeCursor, encodeCursor, type Page } from '../projections/cursor.util.js';

/** An observation that could not be stored, and why. */
export interface DeadLetter {
  readonly id: string;
  readonly cluster: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly group: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly reason: string;
  readonly errorCode: string | null;
  readonly jobId: string;
  readonly failedAt: Date;
  /** The observation as the queue carried it (values of sensitive kinds already hashed). */
  readonly observation: Observation | null;
}

/** A new dead letter: the observation, the error, and the job it came in. */
export interface DeadLetterInput {
  readonly observation: Observation;
  readonly reason: string;
  readonly errorCode: string | null;
  readonly jobId: string;
}

/** Observations that can never be stored (a permanent error): kept with their reason so the hole is visible. */
export class DeadLetterRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Records dead letters (a redelivered one is recorded once); returns how many were new. */
  async record(letters: readonly DeadLetterInput[]): Promise<number> {
    if (letters.length === 0) return 0;
    const col = <T>(f: (l: DeadLetterInput) => T) => letters.map(f);
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO dead_letters (cluster, uid, resource_version, api_group, kind, namespace, name, observation, reason, error_code, job_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::text[], $11::text[])
       ON CONFLICT ON CONSTRAINT uq_dead_letters_observation DO NOTHING
       RETURNING id`,
      [
        col((l) => l.observation.cluster),
        col((l) => l.observation.object.metadata.uid),
        col((l) => l.observation.object.metadata.resourceVersion),
        col((l) => l.observation.resource.group),
        col((l) => l.observation.resource.kind),
        col((l) => l.observation.object.metadata.namespace ?? ''),
        col((l) => l.observation.object.metadata.name),
        // jsonb cannot hold \u0000: an observation that carries one is kept without its body.
        col((l) => safeJson(l.observation)),
        col((l) => l.reason.slice(0, 4000)),
        col((l) => l.errorCode),
        col((l) => l.jobId),
      ],
    );
    return rows.length;
  }

  /** Newest first, cursor-paginated. */
  async list(options: { cluster?: string; cursor?: string; limit: number }): Promise<Page<DeadLetter>> {
    const after = decodeCursor('dead-letters', options.cursor, isId) ?? null;
    const rows: {
      id: string; cluster: string; uid: string; resource_version: string; api_group: string; kind: string; namespace: string; name: string;
      reason: string; error_code: string | null; job_id: string; failed_at: Date; observation: Observation | null;
    }[] = await this.dataSource.query(
      `SELECT id::text, cluster, uid, resource_version, api_group, kind, namespace, name, reason, error_code, job_id, failed_at, observation
       FROM dead_letters
       WHERE ($1::text IS NULL OR cluster = $1) AND ($2::bigint IS NULL OR id < $2::bigint)
       ORDER BY id DESC LIMIT $3`,
      [options.cluster ?? null, after, options.limit + 1],
    );
    const items = rows.slice(0, options.limit).map((r) => ({
      id: r.id, cluster: r.cluster, uid: r.uid, resourceVersion: r.resource_version, group: r.api_group, kind: r.kind,
      namespace: r.namespace, name: r.name, reason: r.reason, errorCode: r.error_code, jobId: r.job_id, failedAt: r.failed_at, observation: r.observation,
    }));
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > options.limit && last ? encodeCursor('dead-letters', last.id) : null };
  }
}

const isId = (v: unknown): v is string => typeof v === 'string' && /^\d{1,19}$/.test(v);

function safeJson(o: Observation): string | null {
  const text = JSON.stringify(o);
  return text.includes('\\u0000') ? null : text;
}
