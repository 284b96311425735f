import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../libs/config/src/index.js';
import { METRICS, type Metrics } from '../../../libs/common/src/index.js';
import { TooManyStreamsError } from './api.error.js';

// Streams last long; a client refused should not come back at once.
const RETRY_AFTER_SECONDS = 10;

/** Counts open event streams against STREAMS_MAX (per process) and STREAMS_MAX_PER_CALLER. */
@Injectable()
export class StreamSlots {
  private open = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(METRICS) private readonly metrics: Metrics,
  ) {}

  /** Takes a slot for `caller` or throws {@link TooManyStreamsError}; returns its release (idempotent). */
  acquire(caller: string): () => void {
    const { max, maxPerCaller } = this.config.streams;
    const mine = this.byCaller.get(caller) ?? 0;
    if (this.open >= max) throw new TooManyStreamsError(`this server has ${this.open} event streams open, its limit (STREAMS_MAX)`, RETRY_AFTER_SECONDS);
    if (mine >= maxPerCaller) {
      throw new TooManyStreamsError(`you have ${mine} event streams open, the limit per caller (STREAMS_MAX_PER_CALLER); close one first`, RETRY_AFTER_SECONDS);
    }
    this.open++;
    this.byCaller.set(caller, mine + 1);
    this.metrics.eventStreamsOpen.set(this.open);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open--;
      const left = (this.byCaller.get(caller) ?? 1) - 1;
      if (left === 0) this.byCaller.delete(caller);
      else this.byCaller.set(caller, left);
      this.metrics.eventStreamsOpen.set(this.open);
    };
  }

  get size(): number {
    return this.open;
  }
}
