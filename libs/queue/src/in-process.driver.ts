import type { Logger } from 'pino';
import { assertHandlers } from './assert-handlers.js';
import { JobAbandonedError, runWithRetries, type LaneHealthListener } from './run-with-retries.js';
import { physicalQueues, type QueueName } from './queue.constants.js';
import type { JobRequest, JobStatus, QueueDriver, QueueProcessor, ReceivedJob, StuckLane } from './queue-driver.types.js';
import type { QueueHealthListener } from './queue-health.listener.js';

interface Lane {
  readonly jobs: ReceivedJob[];
  running: Promise<void> | null;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const RECENT_IDS = 100_000;
/** Finished jobs whose status stays readable (as the BullMQ driver keeps the last 1000 completed). */
const FINISHED_KEPT = 1000;

/**
 * Runs jobs inside this process through the same processors, one at a time per lane (so per-object
 * order holds as with BullMQ), with the same retry budget. Jobs live in memory: what is queued when the
 * process stops is lost, and the watcher's relist on restart recovers it.
 */
export class InProcessQueueDriver implements QueueDriver {
  readonly kind = 'in-process' as const;
  private readonly lanes = new Map<string, Lane>();
  private readonly processors = new Map<QueueName, QueueProcessor>();
  private readonly recent = new Set<string>();
  /** Status of every waiting or running job, and of the last {@link FINISHED_KEPT} finished ones, by queue and id. */
  private readonly statuses = new Map<string, Mutable<JobStatus>>();
  private readonly finished: string[] = [];
  /** Ids of scheduled runs: completed ones keep no status, so a run every few seconds never pushes out a replay's. */
  private readonly scheduled = new Set<string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;
  private readonly closing = new AbortController();
  private readonly stuck = new Map<string, StuckLane>();
  private readonly health: LaneHealthListener;

  constructor(
    private readonly options: { ingestShards: number; attempts: number; closeTimeoutMs?: number },
    private readonly logger: Logger,
    private readonly listener: QueueHealthListener = {},
  ) {
    this.health = {
      stuck: (lane, error) => {
        if (!this.stuck.has(lane)) this.stuck.set(lane, { lane, since: new Date().toISOString(), error: error instanceof Error ? error.message : String(error) });
        this.listener.laneStuck?.(lane, true);
      },
      recovered: (lane) => {
        this.stuck.delete(lane);
        this.listener.laneStuck?.(lane, false);
      },
    };
  }

  async stuckLanes(): Promise<StuckLane[]> {
    return [...this.stuck.values()];
  }

  /** Jobs live in this process: the queue is lost only with the process itself. */
  onQueueLost(): () => void {
    return () => undefined;
  }

  async add(queue: QueueName, jobs: readonly JobRequest[]): Promise<void> {
    for (const j of jobs) {
      if (this.recent.has(j.id)) continue;
      this.remember(j.id);
      const name = queue === 'ingest' ? `ingest-${j.shard ?? 0}` : queue;
      const lane = this.lane(name);
      const status: Mutable<JobStatus> = { id: j.id, name: j.name, data: structuredClone(j.data), state: 'waiting', progress: null, result: null, failedReason: null };
      this.statuses.set(statusKey(queue, j.id), status);
      lane.jobs.push({
        id: j.id,
        name: j.name,
        data: status.data,
        queue: name,
        attempt: 1,
        reportProgress: async (progress) => {
          status.progress = structuredClone(progress);
        },
      });
      this.pump(queue, name);
    }
  }

  async consume(processors: readonly QueueProcessor[]): Promise<void> {
    assertHandlers(processors, [...new Set(processors.map((p) => p.queue))]);
    for (const p of processors) {
      this.processors.set(p.queue, p);
      for (const name of physicalQueues(p.queue, this.options.ingestShards)) this.pump(p.queue, name);
    }
  }

  async schedule(queue: QueueName, request: Omit<JobRequest, 'id'>, everyMs: number): Promise<void> {
    let n = 0;
    let last: string | null = null;
    const fire = () => {
      // A run still waiting or running: this tick is skipped (as BullMQ's scheduler adds the next run only once the last is taken).
      const previous = last === null ? undefined : this.statuses.get(statusKey(queue, last));
      if (previous?.state === 'waiting' || previous?.state === 'active') return;
      last = `${request.name}-every-${everyMs}-${n++}`;
      this.scheduled.add(last);
      void this.add(queue, [{ ...request, id: last }]);
    };
    fire();
    const t = setInterval(fire, everyMs);
    t.unref();
    this.timers.push(t);
  }

  async job(queue: QueueName, id: string): Promise<JobStatus | null> {
    const s = this.statuses.get(statusKey(queue, id));
    return s ? structuredClone(s) : null;
  }

  async pending(queue: QueueName): Promise<number> {
    let n = 0;
    for (const name of physicalQueues(queue, this.options.ingestShards)) {
      const lane = this.lanes.get(name);
      if (lane) n += lane.jobs.length + (lane.running ? 1 : 0);
    }
    return n;
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('queue driver is closed');
  }

  /** Lets running jobs finish for at most `closeTimeoutMs` (a long replay is not waited for: its checkpoints resume it). */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    for (const t of this.timers) clearInterval(t);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((r) => (timer = setTimeout(r, this.options.closeTimeoutMs ?? 10_000)));
    await Promise.race([Promise.all([...this.lanes.values()].map((l) => l.running)), late]);
    clearTimeout(timer);
  }

  private lane(name: string): Lane {
    let lane = this.lanes.get(name);
    if (!lane) this.lanes.set(name, (lane = { jobs: [], running: null }));
    return lane;
  }

  private remember(id: string): void {
    this.recent.add(id);
    if (this.recent.size > RECENT_IDS) this.recent.delete(this.recent.values().next().value!);
  }

  /** Records the outcome; completed ingest jobs (large payloads, as BullMQ does) and completed scheduled runs are dropped at once. */
  private finish(queue: QueueName, id: string, outcome: Partial<Mutable<JobStatus>>): void {
    const key = statusKey(queue, id);
    const status = this.statuses.get(key);
    if (!status) return;
    const scheduled = this.scheduled.delete(id);
    if ((queue === 'ingest' || scheduled) && outcome.state === 'completed') {
      this.statuses.delete(key);
      return;
    }
    Object.assign(status, outcome);
    this.finished.push(key);
    if (this.finished.length > FINISHED_KEPT) this.statuses.delete(this.finished.shift()!);
  }

  private pump(queue: QueueName, name: string): void {
    const lane = this.lane(name);
    const processor = this.processors.get(queue);
    if (lane.running || !processor || this.closed || lane.jobs.length === 0) return;
    lane.running = (async () => {
      await Promise.resolve(); // start after `lane.running` is assigned
      while (!this.closed && lane.jobs.length > 0) {
        const job = lane.jobs[0]!;
        const status = this.statuses.get(statusKey(queue, job.id));
        if (status) status.state = 'active';
        try {
          const result = await runWithRetries(processor, job, this.options.attempts, this.logger, { signal: this.closing.signal, health: this.health });
          this.finish(queue, job.id, { state: 'completed', result: result === undefined ? null : structuredClone(result) });
        } catch (err) {
          if (err instanceof JobAbandonedError) break; // stopping: what is queued in memory goes with the process
          this.logger.error({ err, jobId: job.id, queue: name }, 'job failed for good');
          this.finish(queue, job.id, { state: 'failed', failedReason: err instanceof Error ? err.message : String(err) });
        }
        lane.jobs.shift();
      }
    })().finally(() => {
      lane.running = null;
      if (lane.jobs.length > 0) this.pump(queue, name);
    });
  }
}

function statusKey(queue: QueueName, id: string): string {
  return `${queue}\u0000${id}`;
}
