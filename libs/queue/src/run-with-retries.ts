import type { Logger } from 'pino';
import { InvalidJobPayloadError } from './job-payload.schema.js';
import type { QueueProcessor, ReceivedJob } from './queue-driver.types.js';

/**
 * Runs a job, retrying in place (the job keeps its place at the head of its lane, so later jobs for
 * the same objects never overtake it). Resolves to the processor's result; throws after `attempts` tries;
 * invalid payloads are not retried.
 */
export async function runWithRetries(processor: QueueProcessor, job: ReceivedJob, attempts: number, logger: Logger): Promise<unknown> {
  for (let attempt = job.attempt; ; attempt++) {
    try {
      return await processor.process({ ...job, attempt });
    } catch (err) {
      if (err instanceof InvalidJobPayloadError || attempt >= attempts) throw err;
      logger.warn({ err, jobId: job.id, queue: job.queue, attempt }, 'job failed, retrying');
      await new Promise((r) => setTimeout(r, Math.min(30_000, 200 * 2 ** attempt)));
    }
  }
}
