import { JOB_NAMES, QUEUE_NAMES, type QueueName } from './queue.constants.js';
import type { QueueProcessor } from './queue-driver.types.js';

export class MissingJobHandlerError extends Error {
  readonly code = 'MISSING_JOB_HANDLER' as const;
  constructor(readonly problems: readonly string[]) {
    super(`job handlers do not match the job catalogue: ${problems.join('; ')}`);
    this.name = 'MissingJobHandlerError';
  }
}

/**
 * Start-up check: one processor per queue, and every job name of a consumed queue handled by it.
 * `queues` are the queues this process consumes (a role may consume a subset).
 */
export function assertHandlers(processors: readonly QueueProcessor[], queues: readonly QueueName[] = QUEUE_NAMES): void {
  const problems: string[] = [];
  for (const queue of queues) {
    const mine = processors.filter((p) => p.queue === queue);
    if (mine.length !== 1) {
      problems.push(`queue "${queue}" has ${mine.length} processors (expected 1)`);
      continue;
    }
    for (const name of JOB_NAMES[queue]) {
      if (!(mine[0]!.handles as readonly string[]).includes(name)) problems.push(`job "${name}" on queue "${queue}" has no handler`);
    }
    for (const name of mine[0]!.handles) {
      if (!(JOB_NAMES[queue] as readonly string[]).includes(name)) problems.push(`processor of "${queue}" handles unknown job "${name}"`);
    }
  }
  if (problems.length > 0) throw new MissingJobHandlerError(problems);
}
