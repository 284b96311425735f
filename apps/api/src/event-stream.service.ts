import { Inject, Injectable, type MessageEvent, type OnModuleDestroy } from '@nestjs/common';
import { Observable } from 'rxjs';
import { EventReader, EventTail, ProjectedEventLog, StoreQueryError, type EventPosition, type StoredEvent, type TailSubscription } from '../../../libs/store/src/index.js';
import type { EventResponseDto, ListEventsResponseDto } from './events.dto.js';
import { StreamSlots } from './stream-slots.service.js';
import { ObjectVisibility } from './object-visibility.service.js';
import type { Caller } from '../../../libs/audit/src/index.js';

const cursorOf = (p: EventPosition) => `${p.xid}:${p.seq}`;

function eventItem(e: StoredEvent): EventResponseDto {
  return {
    seq: e.seq, objectId: e.objectId, cluster: e.cluster, uid: e.uid, group: e.group, version: e.version, kind: e.kind,
    namespace: e.namespace, name: e.name, resourceVersion: e.resourceVersion, type: e.eventType, source: e.source,
    observedAt: e.observedAt.toISOString(), cursor: cursorOf(e),
  };
}

/**
 * The raw event log for dashboards: pages by position, and server-sent-event streams, all fed by the
 * process's one {@link EventTail} (never skipping a late commit) and counted against the stream caps.
 * Both serve an event once the ownership projection has folded it, so every read endpoint answers it.
 */
@Injectable()
export class EventStreamService implements OnModuleDestroy {
  // One message per event, shared by every stream that receives it.
  private readonly messages = new WeakMap<StoredEvent, MessageEvent>();

  constructor(
    @Inject(EventReader) private readonly reader: EventReader,
    @Inject(ProjectedEventLog) private readonly log: ProjectedEventLog,
    @Inject(EventTail) private readonly tail: EventTail,
    @Inject(StreamSlots) private readonly slots: StreamSlots,
    @Inject(ObjectVisibility) private readonly visibility: ObjectVisibility,
  ) {}

  /**
   * Only events of objects the caller may `get` (and of `cluster`, when given): a page can hold fewer
   * than `limit`; `nextCursor` goes on past the hidden ones.
   */
  async list(since: string, limit: number, caller: Caller, cluster?: string): Promise<ListEventsResponseDto> {
    const from = await this.position(since);
    const events = await this.log.readAfter(from, limit);
    const last = events[events.length - 1];
    return { items: (await this.shown(events, caller, cluster)).map(eventItem), nextCursor: cursorOf(last ?? from) };
  }

  /** Throws {@link TooManyStreamsError} (before anything is sent) when the caller or the process is at its cap. */
  stream(since: string | undefined, slot: string, caller: Caller, cluster?: string): Observable<MessageEvent> {
    const release = this.slots.acquire(slot);
    return new Observable<MessageEvent>((subscriber) => {
      let closed = false;
      let subscription: TailSubscription | undefined;
      // Batches are filtered for the caller one after another, so the stream keeps the log's order.
      let sent = Promise.resolve();
      const send = async (events: readonly StoredEvent[]) => {
        for (const e of await this.shown(events, caller, cluster)) if (!closed) subscriber.next(this.message(e));
      };
      const start = async () => {
        const from = since === undefined ? undefined : await this.position(since);
        if (closed) return;
        subscription = this.tail.subscribe(from, {
          next: (events) => {
            sent = sent.then(() => send(events)).catch((e: unknown) => subscriber.error(e));
          },
          error: (e) => subscriber.error(e),
          complete: () => void sent.then(() => subscriber.complete()),
        });
      };
      start().catch((e: unknown) => subscriber.error(e));
      return () => {
        closed = true;
        subscription?.close();
        release();
      };
    });
  }

  /** Ends every open stream, so the HTTP server can close. */
  onModuleDestroy(): void {
    this.tail.close();
  }

  /** The events of `cluster` (of every cluster without one) whose object the caller may `get`, in order. */
  private shown(events: readonly StoredEvent[], caller: Caller, cluster: string | undefined): Promise<StoredEvent[]> {
    const ofCluster = cluster === undefined ? events : events.filter((e) => e.cluster === cluster);
    return this.visibility.visible(caller, ofCluster, (e) => e.objectId);
  }

  private message(e: StoredEvent): MessageEvent {
    let m = this.messages.get(e);
    if (!m) this.messages.set(e, (m = { id: cursorOf(e), type: 'event', data: eventItem(e) }));
    return m;
  }

  private async position(since: string): Promise<EventPosition> {
    if (since.includes(':')) {
      const [xid, seq] = since.split(':') as [string, string];
      return { xid, seq };
    }
    const p = await this.reader.positionOf(since);
    if (!p) throw new StoreQueryError('invalid-cursor', `no event with sequence ${since}`, 'since');
    return p;
  }
}
