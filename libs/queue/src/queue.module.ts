import { Global, Inject, Module, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, resolveSensitiveHashKey, type AppConfig } from '../../config/src/index.js';
import { LOGGER, METRICS, type Metrics } from '../../common/src/index.js';
import { createQueueDriver } from './create-queue-driver.js';
import { IngestProducer } from './ingest.producer.js';
import { ProjectProducer } from './project.producer.js';
import { ReplayProducer } from './replay.producer.js';
import { SchemaProducer } from './schema.producer.js';
import { QUEUE_DRIVER } from './queue.constants.js';
import type { QueueDriver } from './queue-driver.types.js';

/** The queue driver (BullMQ or in-process) and the producers. */
@Global()
@Module({
  providers: [
    {
      provide: QUEUE_DRIVER,
      useFactory: (c: AppConfig, l: Logger, m: Metrics) =>
        createQueueDriver(c.queue, l, {
          laneStuck: (lane, stuck) => m.laneStuck.set({ lane }, stuck ? 1 : 0),
          queueLost: () => m.queueLost.inc(),
        }),
      inject: [APP_CONFIG, LOGGER, METRICS],
    },
    {
      provide: IngestProducer,
      useFactory: (d: QueueDriver, c: AppConfig) => new IngestProducer(d, c.queue, { sensitiveKinds: c.capture.sensitiveKinds, hashKey: resolveSensitiveHashKey(c.capture.hashKey) }),
      inject: [QUEUE_DRIVER, APP_CONFIG],
    },
    { provide: ProjectProducer, useFactory: (d: QueueDriver) => new ProjectProducer(d), inject: [QUEUE_DRIVER] },
    { provide: ReplayProducer, useFactory: (d: QueueDriver) => new ReplayProducer(d), inject: [QUEUE_DRIVER] },
    { provide: SchemaProducer, useFactory: (d: QueueDriver) => new SchemaProducer(d), inject: [QUEUE_DRIVER] },
  ],
  exports: [QUEUE_DRIVER, IngestProducer, ProjectProducer, ReplayProducer, SchemaProducer],
})
export class QueueModule implements BeforeApplicationShutdown {
  constructor(
    @Inject(QUEUE_DRIVER) private readonly driver: QueueDriver,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  // Workers finish their current job before the database closes (StoreModule closes it later).
  // Each step of a stop says when it is done: past the stop deadline, the last one tells which hung.
  async beforeApplicationShutdown(): Promise<void> {
    const started = Date.now();
    await this.driver.close();
    this.logger.info({ ms: Date.now() - started }, 'queue closed');
  }
}
