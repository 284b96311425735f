// Test support: a project-queue processor that reports progress, then waits for `release()` (imported by specs only).
import type { QueueProcessor } from '../queue-driver.types.js';
import { JOB_NAMES } from '../queue.constants.js';

/** Job `bad` throws (with its attempt number); any other reports progress, waits for `release()`, and resolves to `result`. */
export function gatedProcessor(progress: Record<string, unknown>, result: unknown): { processor: QueueProcessor; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const processor: QueueProcessor = {
    queue: 'project',
    handles: [...JOB_NAMES.project],
    async process(job) {
      if (job.id === 'bad') throw new Error(`boom on attempt ${job.attempt}`);
      await job.reportProgress?.(progress);
      await gate;
      return result;
    },
  };
  return { processor, release };
}
