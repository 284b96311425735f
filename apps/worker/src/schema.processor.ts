import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../../../libs/common/src/index.js';
import { ApiSchemaRepository } from '../../../libs/store/src/index.js';
import { parsePayload, ProjectProducer, type QueueProcessor, type ReceivedJob } from '../../../libs/queue/src/index.js';

/**
 * Stores the OpenAPI documents the watcher downloaded (the watcher itself writes nothing). When they
 * changed, a projection run follows: it projects again the objects whose kind's schema changed.
 */
@Injectable()
export class SchemaProcessor implements QueueProcessor {
  readonly queue = 'schemas' as const;
  readonly handles = ['store-api-schemas'] as const;

  constructor(
    @Inject(ApiSchemaRepository) private readonly schemas: ApiSchemaRepository,
    @Inject(ProjectProducer) private readonly projections: ProjectProducer,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async process(job: ReceivedJob): Promise<void> {
    const { cluster, fetchedAt, documents, paths } = parsePayload('store-api-schemas', job.data);
    const r = await this.schemas.put(cluster, documents, new Date(fetchedAt), paths);
    if (r.changed + r.removed === 0) return;
    this.logger.info({ jobId: job.id, cluster, ...r }, 'API schemas stored');
    await this.projections.enqueue(`schemas-${job.id}`, []);
  }
}
