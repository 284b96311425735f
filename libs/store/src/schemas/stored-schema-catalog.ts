import type { DataSource } from 'typeorm';
import { SchemaCatalog, type ConvertedDocumentCache, type SchemaCatalogSource } from '../../../audit/src/index.js';

export type { SchemaCatalogSource };

export interface StoredSchemaCatalogOptions {
  /** Check the stored documents at most this often (0: on every call), unless a call says otherwise. */
  readonly maxAgeMs?: number;
}

interface DocumentRow {
  cluster: string;
  path: string;
  hash: string;
}

/**
 * The schema catalog of the OpenAPI documents stored now (`api_schemas`, written by the schema job).
 * `current()` reads the documents' hashes (one small query) and builds a new catalog only when they
 * changed; a document is read and converted once per content, whatever the number of refreshes.
 */
export class StoredSchemaCatalog {
  private catalog = new SchemaCatalog([]);
  private fingerprint = '';
  private checkedAt = Number.NEGATIVE_INFINITY;
  private readonly converted: ConvertedDocumentCache = new Map();

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: StoredSchemaCatalogOptions = {},
  ) {}

  /** The catalog for the documents stored now (checked at most `maxAgeMs` ago); the same object while they are unchanged. */
  async current(maxAgeMs = this.options.maxAgeMs ?? 0): Promise<SchemaCatalog> {
    const now = Date.now();
    if (now - this.checkedAt < maxAgeMs) return this.catalog;
    this.checkedAt = now;
    const rows: DocumentRow[] = await this.dataSource.query(
      `SELECT c.name AS cluster, s.path, encode(s.document_hash, 'hex') AS hash FROM api_schemas s JOIN clusters c ON c.id = s.cluster_id ORDER BY c.name, s.path`,
    );
    const fingerprint = rows.map((r) => `${r.cluster}\u0000${r.path}\u0000${r.hash}`).join('\u0001');
    if (fingerprint === this.fingerprint) return this.catalog;
    const stored = new Set(rows.map((r) => r.hash));
    const missing = [...stored].filter((h) => !this.converted.has(h));
    const documents = new Map<string, unknown>();
    if (missing.length > 0) {
      const docs: { hash: string; document: unknown }[] = await this.dataSource.query(
        `SELECT DISTINCT ON (document_hash) encode(document_hash, 'hex') AS hash, document FROM api_schemas WHERE document_hash = ANY($1::bytea[])`,
        [missing.map((h) => Buffer.from(h, 'hex'))],
      );
      for (const d of docs) documents.set(d.hash, d.document);
    }
    for (const hash of this.converted.keys()) if (!stored.has(hash)) this.converted.delete(hash);
    this.catalog = new SchemaCatalog(rows.map((r) => ({ ...r, document: documents.get(r.hash) ?? null })), this.converted);
    this.fingerprint = fingerprint;
    return this.catalog;
  }
}
