import type { Logger } from 'pino';
import type { QueueConfig } from '../../config/src/index.js';
import { BullMqQueueDriver } from './bullmq.driver.js';
import { InProcessQueueDriver } from './in-process.driver.js';
import type { QueueDriver } from './queue-driver.types.js';
import type { QueueHealthListener } from './queue-health.listener.js';

/** BullMQ when REDIS_URL is set, otherwise the in-process driver. */
export function createQueueDriver(config: QueueConfig, logger: Logger, listener: QueueHealthListener = {}): QueueDriver {
  const { transport, prefix, ingestShards, attempts, lockDurationMs, epochCheckMs, closeTimeoutMs } = config;
  return transport.driver === 'bullmq'
    ? new BullMqQueueDriver({ redisUrl: transport.redisUrl, prefix, ingestShards, attempts, lockDurationMs, epochCheckMs, closeTimeoutMs }, logger, listener)
    : new InProcessQueueDriver({ ingestShards, attempts, closeTimeoutMs }, logger, listener);
}
