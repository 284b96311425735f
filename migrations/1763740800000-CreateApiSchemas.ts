import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The clusters' OpenAPI documents, as downloaded by the watcher: one row per cluster and
 * group-version (v3), or one `openapi/v2` row for clusters without v3. The engine builds its schemas
 * from them (schemaFromOpenApi) to simulate applies for built-in kinds and CRDs.
 */
export class CreateApiSchemas1763740800000 implements MigrationInterface {
  name = 'CreateApiSchemas1763740800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_schemas (
        cluster_id integer NOT NULL,
        path text NOT NULL,
        format text NOT NULL,
        document_hash bytea NOT NULL,
        document jsonb NOT NULL,
        fetched_at timestamptz NOT NULL,
        CONSTRAINT pk_api_schemas PRIMARY KEY (cluster_id, path),
        CONSTRAINT fk_api_schemas_cluster FOREIGN KEY (cluster_id) REFERENCES clusters (id),
        CONSTRAINT ck_api_schemas_format CHECK (format IN ('openapi-v3', 'openapi-v2')),
        CONSTRAINT ck_api_schemas_hash_sha256 CHECK (octet_length(document_hash) = 32)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_schemas`);
  }
}
