import type { DataSource, QueryRunner } from 'typeorm';
import type { WatchCheckpoint } from '../../../common/src/index.js';

/** The resume positions of one cluster as stored, for the identity asked about. */
export interface StoredWatchPositions {
  /** `resource.group` → resourceVersion every lane has committed everything before. */
  readonly positions: Map<string, string>;
  /** The highest checkpoint number stored for the cluster (any identity): a new session counts on from above it. */
  readonly maxFlush: bigint;
  /** Positions exist for this cluster under another identity: the cluster behind the name was replaced. */
  readonly otherIdentity: string | null;
}

/**
 * Where the watcher resumes, kept beside the events: {@link write} runs inside the ingest transaction
 * of the batch a checkpoint ends, so a stored position never claims an observation that is not committed.
 */
export class WatchPositionRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Records one lane's copy of a checkpoint (moves only forward; a new cluster identity replaces the old). */
  async write(q: QueryRunner, cp: WatchCheckpoint): Promise<void> {
    const resources = Object.keys(cp.positions).sort();
    if (resources.length === 0) return;
    await q.query(
      `INSERT INTO watch_positions AS p (cluster, resource, lane, lanes, cluster_uid, flush, resource_version)
       SELECT $1, r, $3, $4, $5, $6::bigint, rv FROM unnest($2::text[], $7::text[]) AS x(r, rv)
       ON CONFLICT (cluster, resource, lane) DO UPDATE
         SET lanes = EXCLUDED.lanes, cluster_uid = EXCLUDED.cluster_uid, flush = EXCLUDED.flush,
             resource_version = EXCLUDED.resource_version, updated_at = now()
         WHERE p.flush <= EXCLUDED.flush OR p.cluster_uid <> EXCLUDED.cluster_uid OR p.lanes <> EXCLUDED.lanes`,
      [cp.cluster, resources, cp.lane, cp.lanes, cp.clusterUid, cp.flush, resources.map((r) => cp.positions[r] ?? null)],
    );
  }

  /**
   * A resource's position is the one of its oldest checkpoint across the `lanes` lanes (each lane has
   * committed everything up to its own, so all of them have committed everything up to the oldest);
   * a resource some lane has no position for is listed afresh.
   */
  async load(cluster: string, clusterUid: string, lanes: number): Promise<StoredWatchPositions> {
    const rows: { resource: string; resource_version: string | null; n: string }[] = await this.dataSource.query(
      `SELECT resource, resource_version, n FROM (
         SELECT resource, resource_version, count(*) OVER (PARTITION BY resource) AS n,
                row_number() OVER (PARTITION BY resource ORDER BY flush, lane) AS r
         FROM watch_positions WHERE cluster = $1 AND cluster_uid = $2 AND lanes = $3 AND lane < $3) x
       WHERE r = 1`,
      [cluster, clusterUid, lanes],
    );
    const positions = new Map<string, string>();
    for (const r of rows) if (Number(r.n) === lanes && r.resource_version !== null) positions.set(r.resource, r.resource_version);
    const meta: { max_flush: string | null; other: string | null }[] = await this.dataSource.query(
      `SELECT max(flush)::text AS max_flush, max(cluster_uid) FILTER (WHERE cluster_uid <> $2) AS other FROM watch_positions WHERE cluster = $1`,
      [cluster, clusterUid],
    );
    return { positions, maxFlush: BigInt(meta[0]?.max_flush ?? '0'), otherIdentity: meta[0]?.other ?? null };
  }
}
