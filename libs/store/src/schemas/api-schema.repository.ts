import type { DataSource } from 'typeorm';
import { canonicalJson, sha256 } from '../../../common/src/index.js';

export type ApiSchemaFormat = 'openapi-v3' | 'openapi-v2';

/** One stored OpenAPI document of a cluster (`apis/apps/v1`, `api/v1`, or `openapi/v2`). */
export interface ApiSchemaDocument {
  readonly cluster: string;
  readonly path: string;
  readonly format: ApiSchemaFormat;
  readonly document: unknown;
}

/** The clusters' OpenAPI documents: written by the schema job, read when schemas are built for the engine. */
export class ApiSchemaRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores each document unless the same one is already there, and drops the cluster's documents whose
   * path is not in `currentPaths` (a deleted CRD's group-version).
   */
  async put(cluster: string, documents: readonly Omit<ApiSchemaDocument, 'cluster'>[], fetchedAt: Date, currentPaths: readonly string[]): Promise<{ changed: number; removed: number }> {
    await this.dataSource.query(`INSERT INTO clusters (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [cluster]);
    return this.dataSource.transaction(async (m) => {
      const [{ id }] = (await m.query(`SELECT id FROM clusters WHERE name = $1`, [cluster])) as { id: number }[];
      let changed = 0;
      for (const d of documents) {
        const hash = sha256(canonicalJson(d.document));
        const rows: unknown[] = await m.query(
          `INSERT INTO api_schemas AS s (cluster_id, path, format, document_hash, document, fetched_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6)
           ON CONFLICT (cluster_id, path) DO UPDATE SET format = EXCLUDED.format, document_hash = EXCLUDED.document_hash,
             document = EXCLUDED.document, fetched_at = EXCLUDED.fetched_at
           WHERE s.document_hash <> EXCLUDED.document_hash
           RETURNING 1`,
          [id, d.path, d.format, hash, JSON.stringify(d.document), fetchedAt],
        );
        changed += rows.length;
      }
      const gone: unknown[] = await m.query(`DELETE FROM api_schemas WHERE cluster_id = $1 AND NOT (path = ANY($2::text[])) RETURNING 1`, [id, [...currentPaths]]);
      return { changed, removed: gone.length };
    });
  }

  async list(cluster: string): Promise<ApiSchemaDocument[]> {
    const rows: { path: string; format: ApiSchemaFormat; document: unknown }[] = await this.dataSource.query(
      `SELECT s.path, s.format, s.document FROM api_schemas s JOIN clusters c ON c.id = s.cluster_id WHERE c.name = $1 ORDER BY s.path`,
      [cluster],
    );
    return rows.map((r) => ({ cluster, ...r }));
  }
}
