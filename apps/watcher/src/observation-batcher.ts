import type { Logger } from 'pino';
import type { Observation } from '../../../libs/common/src/index.js';
import { Backoff, resourceKey, sleep, type ApiResource, type WatchSink } from '../../../libs/kube/src/index.js';
import type { WatchPositionStore } from '../../../libs/queue/src/index.js';

export interface BatcherOptions {
  readonly batchSize: number;
  readonly batchDelayMs: number;
  readonly maxQueueDepth: number;
  readonly settleTimeoutMs: number;
}

export interface BatcherPorts {
  enqueue(observations: readonly Observation[]): Promise<unknown>;
  /** Ingest jobs waiting or running. */
  queueDepth(): Promise<number>;
  readonly positions: WatchPositionStore;
  onEnqueued?(count: number): void;
  onQueueDepth?(depth: number): void;
}

/**
 * The watch streams of one cluster → ingest jobs: observations are buffered and enqueued when the
 * buffer holds `batchSize` or its oldest entry is `batchDelayMs` old; a push waits while a flush is due
 * and while the queue is deeper than `maxQueueDepth` (backpressure up to the sockets). After each
 * enqueue the resume positions it covers are saved, never before: a crash replays, it never skips.
 */
export class ObservationBatcher implements WatchSink {
  private buffer: Observation[] = [];
  private positions = new Map<string, string>();
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
  ) {}

  async push(resource: ApiResource, observations: readonly Observation[], position?: string): Promise<void> {
    if (this.closing.signal.aborted) throw new Error('watcher is stopping');
    for (const o of observations) this.buffer.push(o);
    if (position !== undefined) this.positions.set(resourceKey(resource), position);
    if (this.buffer.length >= this.options.batchSize) {
      const flushed = this.flush();
      if (this.inFlight > 1) await flushed;
    } else this.timer ??= setTimeout(() => void this.flush(), this.options.batchDelayMs);
  }

  /** Enqueues what is buffered (in order after any flush under way). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    const positions = this.positions;
    this.buffer = [];
    this.positions = new Map();
    if (batch.length === 0 && positions.size === 0) return this.chain;
    this.inFlight++;
    this.chain = this.chain.then(() => this.send(batch, positions)).finally(() => this.inFlight--);
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
    await Promise.race([this.flush(), sleep(timeoutMs, timer.signal)]);
    timer.abort();
    this.closing.abort();
  }

  /** Stops at once without flushing (a lost lease: the next leader resumes from the saved positions). */
  abandon(): void {
    clearTimeout(this.timer);
    this.buffer = [];
    this.positions = new Map();
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

  private async send(batch: Observation[], positions: Map<string, string>): Promise<void> {
    const backoff = new Backoff(200, 10_000);
    while (!this.closing.signal.aborted) {
      try {
        while ((await this.depth()) > this.options.maxQueueDepth && !this.closing.signal.aborted) await sleep(100, this.closing.signal);
        if (batch.length > 0) {
          await this.ports.enqueue(batch);
          this.ports.onEnqueued?.(batch.length);
          batch = [];
        }
        await this.ports.positions.save(this.cluster, positions);
        return;
      } catch (e) {
        const delay = backoff.next();
        this.logger.warn({ err: e, cluster: this.cluster, observations: batch.length, delayMs: delay }, 'enqueue failed: retrying');
        await sleep(delay, this.closing.signal);
      }
    }
  }
}
