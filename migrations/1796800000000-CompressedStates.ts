import type { MigrationInterface, QueryRunner } from 'typeorm';
import { decompressStateDocument } from '../libs/store/src/projections/state-document.codec.js';

/**
 * Projection states stored compressed: `ownership_states.state_compressed` (`bytea`) holds a state's
 * document as `libs/store/src/projections/state-document.codec.ts` writes it (a format byte, then its
 * JSON text deflated with a preset dictionary), and `state` (`json`) becomes nullable; exactly one of
 * the two is set. Every state the service writes from now on is compressed; the rows written before
 * keep their `json` and read as before, until their object's next event rewrites them. So `up`
 * rewrites no row: it adds a column and a check (which reads the table once, holding it).
 *
 * `down` writes every compressed document back as `json` (decoded here, in pages of the primary key,
 * each statement bounded in bytes) before dropping the column.
 */
export class CompressedStates1796800000000 implements MigrationInterface {
  name = 'CompressedStates1796800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ownership_states ADD COLUMN state_compressed bytea, ALTER COLUMN state DROP NOT NULL`);
    // Compressed already: Postgres need not try again where a large state's row passes its threshold.
    await q.query(`ALTER TABLE ownership_states ALTER COLUMN state_compressed SET STORAGE EXTERNAL`);
    await q.query(`ALTER TABLE ownership_states ADD CONSTRAINT ck_ownership_states_one_document CHECK ((state IS NULL) <> (state_compressed IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    let after: { generation: number; object_id: string } | null = null;
    for (;;) {
      const rows: { generation: number; object_id: string; state_compressed: Buffer | null }[] = await q.query(
        `SELECT generation, object_id, state_compressed FROM ownership_states
         WHERE ($1::integer IS NULL OR (generation, object_id) > ($1::integer, $2::text)) ORDER BY generation, object_id LIMIT ${DOWN_PAGE_ROWS}`,
        [after?.generation ?? null, after?.object_id ?? null],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!;
      // Written back in statements of at most DOWN_STATEMENT_BYTES of documents (a custom resource's state can be large).
      let documents: { generation: number; object_id: string; state: string }[] = [];
      let bytes = 0;
      for (const r of rows) {
        if (r.state_compressed === null) continue;
        // Each document as its JSON text in a string: the recordset decodes it to `text`, which keeps an escaped U+0000 as written.
        const state = JSON.stringify(decompressStateDocument(r.state_compressed));
        documents.push({ generation: r.generation, object_id: r.object_id, state });
        bytes += state.length;
        if (bytes >= DOWN_STATEMENT_BYTES) {
          await writeBackAsJson(q, documents);
          documents = [];
          bytes = 0;
        }
      }
      await writeBackAsJson(q, documents);
    }
    await q.query(`ALTER TABLE ownership_states DROP CONSTRAINT ck_ownership_states_one_document`);
    await q.query(`ALTER TABLE ownership_states DROP COLUMN state_compressed, ALTER COLUMN state SET NOT NULL`);
  }
}

/** Rows read a page in `down`, and documents' bytes written back a statement. */
const DOWN_PAGE_ROWS = 500;
const DOWN_STATEMENT_BYTES = 16 * 1024 * 1024;

async function writeBackAsJson(q: QueryRunner, documents: readonly { generation: number; object_id: string; state: string }[]): Promise<void> {
  if (documents.length === 0) return;
  await q.query(
    `UPDATE ownership_states s SET state = d.state::json, state_compressed = NULL
     FROM json_to_recordset($1::json) AS d(generation integer, object_id text, state text)
     WHERE s.generation = d.generation AND s.object_id = d.object_id`,
    [JSON.stringify(documents)],
  );
}
