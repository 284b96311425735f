import type { Logger } from 'pino';
import type { QueueConfig } from '../../config/src/index.js';
import { BullMqQueueDriver } from './bullmq.driver.js';
import { InProcessQueueDriver } from './in-process.driver.js';
import type { QueueDriver } from './queue-driver.types.js';

/** BullMQ when REDIS_URL is set, otherwise the in-process driver. */
export function createQueueDriver(config: QueueConfig, logger: Logger): QueueDriver {
  const { transport, prefix, ingestShards, attempts, lockDurationMs } = config;
  return transport.driver === 'bullmq'
    ? new BullMqQueueDriver({ redisUrl: transport.redisUrl, prefix, ingestShards, attempts, lockDurationMs }, logger)
    : new InProcessQueueDriver({ ingestShards, attempts }, logger);
}
