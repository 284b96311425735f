import { sha256Hex } from '../../common/src/index.js';
import { jobId } from './job-id.util.js';
import { parsePayload, type JobPayload } from './job-payload.schema.js';
import type { QueueDriver } from './queue-driver.types.js';

type Documents = JobPayload<'store-api-schemas'>['documents'];

/** Most documents per job: a real cluster's v3 documents run to megabytes in total. */
const DOCUMENTS_PER_JOB = 4;

/** Hands downloaded OpenAPI documents to the schema job, a few per job, ids derived from their content. */
export class SchemaProducer {
  constructor(private readonly driver: QueueDriver) {}

  async enqueue(cluster: string, documents: Documents, paths: readonly string[], fetchedAt = new Date()): Promise<void> {
    const chunks: Documents[] = [];
    for (let i = 0; i < documents.length; i += DOCUMENTS_PER_JOB) chunks.push(documents.slice(i, i + DOCUMENTS_PER_JOB));
    if (chunks.length === 0) chunks.push([]);
    const jobs = chunks.map((docs) => {
      const data = parsePayload('store-api-schemas', { cluster, fetchedAt: fetchedAt.toISOString(), documents: docs, paths: [...paths] });
      const id = jobId('schemas', [cluster, ...docs.map((d) => `${d.path}=${sha256Hex(JSON.stringify(d.document))}`), `paths=${sha256Hex(paths.join('\u0000'))}`]);
      return { name: 'store-api-schemas' as const, id, data };
    });
    await this.driver.add('schemas', jobs);
  }
}
