import type { Logger } from 'pino';
import type { Observation } from '../../../libs/common/src/index.js';
import { Backoff, resourceKey, sleep, type ApiResource, type WatchSink } from '../../../libs/kube/src/index.js';
import type { Checkpoint } from '../../../libs/queue/src/index.js';

export interface BatcherOptions {
  readonly batchSize: number;
  /** About the most bytes of objects (as they arrived) buffered before a flush; none: by count alone. */
  readonly batchBytes?: number;
  readonly batchDelayMs: number;
  readonly maxQueueDepth: number;
  readonly settleTimeoutMs: number;
}

/** Where the checkpoints of this batcher's session start and how often one goes out. */
export interface CheckpointOptions {
  /** The cluster's identity the positions belong to (kube-system's uid). */
  readonly clusterUid: string;
  /** The first checkpoint's number: above every checkpoint stored for the cluster. */
  readonly firstFlush: bigint;
  /** At most one checkpoint this often (each costs one small transaction per ingest lane). */
  readonly everyMs: number;
}

export interface BatcherPorts {
  /** Enqueues observations and, when given, the checkpoint they end (committed with them, lane by lane). */
  enqueue(observations: readonly Observation[], checkpoint?: Checkpoint): Promise<unknown>;
  /** Ingest jobs waiting or running. */
  queueDepth(): Promise<number>;
  onEnqueued?(count: number): void;
  onQueueDepth?(depth: number): void;
}

/**
 * The watch streams of one cluster → ingest jobs: observations are buffered and enqueued when the
 * buffer holds `batchSize` of them or `batchBytes` of their objects, or its oldest entry is
 * `batchDelayMs` old; a push waits while a flush is due
 * and while the queue is deeper than `maxQueueDepth` (backpressure up to the sockets). The resume
 * positions travel with the jobs as a checkpoint (at most every `everyMs`), which the ingest commits
 * in the same transaction as the observations before it: a stored position never claims more than
 * what is stored, whatever happens to the queue. A crash or a lost queue replays; it never skips.
 */
export class ObservationBatcher implements WatchSink {
  private buffer: Observation[] = [];
  private bufferedBytes = 0;
  private positions = new Map<string, string | null>();
  /** Positions flushed but not yet sent in a checkpoint. */
  private unsent = new Map<string, string | null>();
  private nextFlush: bigint;
  private lastCheckpointAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  /** Flushes queued or running: a push waits only when a second one would start (one overlaps with filling). */
  private inFlight = 0;
  private depthSeen: { at: number; value: number } | undefined;
  private readonly closing = new AbortController();

  constructor(
    private readonly cluster: string,
    private readonly options: BatcherOptions,
    private readonly ports: BatcherPorts,
    private readonly logger: Logger,
    private readonly checkpoints: CheckpointOptions = { clusterUid: '', firstFlush: 1n, everyMs: 1000 },
  ) {
    this.nextFlush = checkpoints.firstFlush;
  }

  async push(resource: ApiResource, observations: readonly Observation[], position?: string, bytes = 0): Promise<void> {
    if (this.closing.signal.aborted) throw new Error('watcher is stopping');
    for (const o of observations) this.buffer.push(o);
    this.bufferedBytes += bytes;
    if (position !== undefined) this.positions.set(resourceKey(resource), position);
    if (this.buffer.length >= this.options.batchSize || this.bufferedBytes >= (this.options.batchBytes ?? Number.POSITIVE_INFINITY)) {
      const flushed = this.flush();
      if (this.inFlight > 1) await flushed;
    } else this.timer ??= setTimeout(() => void this.flush(), this.options.batchDelayMs);
  }

  /** Forgets a resource that is no longer served (a deleted CRD): if it comes back, it is listed afresh. */
  forget(resource: string): void {
    this.positions.set(resource, null);
    this.timer ??= setTimeout(() => void this.flush(), this.options.batchDelayMs);
  }

  /**
   * Enqueues what is buffered (in order after any flush under way), with a checkpoint of the positions
   * seen so far when one is due (`final`: always, when there is any).
   */
  flush(final = false): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    for (const [k, v] of this.positions) this.unsent.set(k, v);
    this.buffer = [];
    this.bufferedBytes = 0;
    this.positions = new Map();
    let checkpoint: Checkpoint | undefined;
    const wait = this.lastCheckpointAt + this.checkpoints.everyMs - Date.now();
    if (this.unsent.size > 0 && (final || wait <= 0)) {
      checkpoint = { cluster: this.cluster, clusterUid: this.checkpoints.clusterUid, flush: String(this.nextFlush++), positions: Object.fromEntries(this.unsent) };
      this.unsent = new Map();
      this.lastCheckpointAt = Date.now();
    } else if (this.unsent.size > 0) this.timer = setTimeout(() => void this.flush(), wait);
    if (batch.length === 0 && !checkpoint) return this.chain;
    this.inFlight++;
    this.chain = this.chain.then(() => this.send(batch, checkpoint)).finally(() => this.inFlight--);
    return this.chain;
  }

  async settle(): Promise<void> {
    await this.flush();
    const deadline = Date.now() + this.options.settleTimeoutMs;
    while (!this.closing.signal.aborted) {
      const depth = await this.depth(true);
      if (depth === 0) return;
      if (Date.now() > deadline) {
        this.logger.warn({ cluster: this.cluster, depth }, 'ingest queue did not drain in time: diffing the relist against the store as it is');
        return;
      }
      await sleep(100, this.closing.signal);
    }
  }

  /** Flushes what is buffered (for at most `timeoutMs`: an unreachable queue must not block shutdown), then refuses more. */
  async close(timeoutMs = 10_000): Promise<void> {
    const timer = new AbortController();
    await Promise.race([this.flush(true), sleep(timeoutMs, timer.signal)]);
    timer.abort();
    this.closing.abort();
  }

  /** Stops at once without flushing (a lost lease: the next leader resumes from the saved positions). */
  abandon(): void {
    clearTimeout(this.timer);
    this.buffer = [];
    this.bufferedBytes = 0;
    this.positions = new Map();
    this.unsent = new Map();
    this.closing.abort();
  }

  /** The queue depth, asked at most every 250 ms while it is below the limit (each ask costs a round trip per shard). */
  private async depth(fresh = false): Promise<number> {
    const seen = this.depthSeen;
    if (!fresh && seen && Date.now() - seen.at < 250 && seen.value <= this.options.maxQueueDepth) return seen.value;
    const d = await this.ports.queueDepth();
    this.depthSeen = { at: Date.now(), value: d };
    this.ports.onQueueDepth?.(d);
    return d;
  }

  private async send(batch: Observation[], checkpoint: Checkpoint | undefined): Promise<void> {
    const backoff = new Backoff(200, 10_000);
    while (!this.closing.signal.aborted) {
      try {
        while ((await this.depth()) > this.options.maxQueueDepth && !this.closing.signal.aborted) await sleep(100, this.closing.signal);
        // Job ids are deterministic: a retry after a partial add adds only what is missing.
        await this.ports.enqueue(batch, checkpoint);
        this.ports.onEnqueued?.(batch.length);
        return;
      } catch (e) {
        const delay = backoff.next();
        this.logger.warn({ err: e, cluster: this.cluster, observations: batch.length, delayMs: delay }, 'enqueue failed: retrying');
        await sleep(delay, this.closing.signal);
      }
    }
  }
}
