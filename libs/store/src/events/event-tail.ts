import type { EventPosition } from './event-position.js';
import type { StoredEvent } from './event-reader.js';

/** What the tail needs of {@link EventReader} (a port, so the hand-over is unit-testable). */
export interface EventLogReader {
  readAfter(position: EventPosition, limit: number): Promise<StoredEvent[]>;
  tail(): Promise<EventPosition>;
}

/** Where a subscription's events go. `complete` is called when the tail is closed (shutdown). */
export interface TailObserver {
  next(events: readonly StoredEvent[]): void;
  error(e: unknown): void;
  complete(): void;
}

export interface TailSubscription {
  close(): void;
}

export interface EventTailOptions {
  /** Pause between reads once the tail is at the end of the log. */
  readonly pollMs?: number;
  readonly pageSize?: number;
  /** A failed read of the shared tail (retried after `pollMs`; subscribers stay open). */
  readonly onError?: (e: unknown) => void;
}

interface Subscriber {
  readonly observer: TailObserver;
  closed: boolean;
  /** Events at or before this position were already delivered by the subscriber's own catch-up. */
  after: EventPosition | undefined;
}

/** Orders positions as the log does: by xid, then seq (64-bit decimal strings). */
export function comparePositions(a: EventPosition, b: EventPosition): number {
  const x = BigInt(a.xid) - BigInt(b.xid);
  if (x !== 0n) return x < 0n ? -1 : 1;
  const s = BigInt(a.seq) - BigInt(b.seq);
  return s === 0n ? 0 : s < 0n ? -1 : 1;
}

/**
 * One shared reader of the end of the event log, fanned out to every subscriber: whatever the number
 * of subscribers, one `readAfter` per poll. It runs only while a subscription is open.
 *
 * A subscriber starting in the past catches up with its own paged reads and joins the shared tail
 * once its position is at or past the tail's. Every reader walking `readAfter` sees the same
 * sequence (everything before a returned event is final: its xid was below the oldest open
 * transaction), so joining at position `s` with the tail at `t <= s` and dropping the tail's events
 * up to `s` neither skips nor repeats one. (The reader's end must only move forward: a stretch read
 * as empty must stay empty. The raw log's end, the oldest open transaction, does; for the projected
 * log, {@link ProjectedEventLog} makes it so.)
 */
export class EventTail {
  private readonly pollMs: number;
  private readonly pageSize: number;
  private readonly onError: (e: unknown) => void;
  /** Open subscriptions, joined or still catching up; the tail stops when there are none. */
  private readonly open = new Set<Subscriber>();
  /** The subscriptions that joined the shared tail. */
  private readonly joined = new Set<Subscriber>();
  /** The shared tail's position: everything up to it was delivered to the joined subscribers. Undefined while stopped. */
  private position: EventPosition | undefined;
  private starting: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly reader: EventLogReader,
    options: EventTailOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 500;
    this.pageSize = options.pageSize ?? 500;
    this.onError = options.onError ?? (() => undefined);
  }

  /** Subscriptions open (joined or catching up). */
  get size(): number {
    return this.open.size;
  }

  /** Whether the shared poller runs. */
  get running(): boolean {
    return this.position !== undefined || this.starting !== undefined;
  }

  /**
   * Delivers, in log order and page by page, every event after `from`; without `from`, every event
   * after the current end of the log (as the shared tail last read it).
   */
  subscribe(from: EventPosition | undefined, observer: TailObserver): TailSubscription {
    const sub: Subscriber = { observer, closed: false, after: undefined };
    this.open.add(sub);
    if (from === undefined && this.position !== undefined) {
      this.joined.add(sub);
    } else {
      this.catchUp(sub, from).catch((e: unknown) => {
        if (sub.closed) return;
        this.release(sub);
        observer.error(e);
      });
    }
    return { close: () => this.release(sub) };
  }

  /** Ends every subscription (`complete`) and stops the poller. */
  close(): void {
    const subs = [...this.open];
    for (const s of subs) this.release(s);
    for (const s of subs) s.observer.complete();
  }

  private release(sub: Subscriber): void {
    if (sub.closed) return;
    sub.closed = true;
    this.joined.delete(sub);
    this.open.delete(sub);
    if (this.open.size === 0) this.stopTimer();
  }

  private async catchUp(sub: Subscriber, from: EventPosition | undefined): Promise<void> {
    let s = from;
    for (;;) {
      await this.ensureStarted();
      if (sub.closed) return;
      const t = this.position!;
      s ??= t;
      if (comparePositions(t, s) <= 0) {
        // Hand-over: the tail's next pages start after t <= s; drop what this subscriber already has.
        sub.after = comparePositions(t, s) < 0 ? s : undefined;
        this.joined.add(sub);
        return;
      }
      const page = await this.reader.readAfter(s, this.pageSize);
      if (sub.closed) return;
      if (page.length === 0) {
        // Everything up to t was final when the tail read it: nothing between s and t can appear later.
        s = t;
        continue;
      }
      sub.observer.next(page);
      s = page[page.length - 1]!;
    }
  }

  private ensureStarted(): Promise<void> {
    if (this.position !== undefined) return Promise.resolve();
    this.starting ??= this.reader.tail().then(
      (p) => {
        this.starting = undefined;
        this.position = p;
        void this.run();
      },
      (e: unknown) => {
        this.starting = undefined;
        throw e;
      },
    );
    return this.starting;
  }

  private async run(): Promise<void> {
    while (this.open.size > 0) {
      let full = false;
      try {
        const page = await this.reader.readAfter(this.position!, this.pageSize);
        if (page.length > 0) {
          this.position = page[page.length - 1]!;
          for (const sub of [...this.joined]) this.deliver(sub, page);
        }
        full = page.length === this.pageSize;
      } catch (e) {
        this.onError(e);
      }
      if (!full && this.open.size > 0) await this.sleep();
    }
    this.position = undefined;
  }

  private deliver(sub: Subscriber, page: readonly StoredEvent[]): void {
    if (sub.closed) return;
    const after = sub.after;
    if (after === undefined) return sub.observer.next(page);
    const fresh = page.filter((e) => comparePositions(e, after) > 0);
    if (fresh.length === 0) return;
    sub.after = undefined;
    sub.observer.next(fresh);
  }

  private sleep(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, this.pollMs);
    });
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.wake?.();
    this.wake = undefined;
  }
}
