import { Inject, Injectable, type MessageEvent, type OnModuleDestroy } from '@nestjs/common';
import { Observable } from 'rxjs';
import { EventReader, EventTail, StoreQueryError, type EventPosition, type StoredEvent, type TailSubscription } from '../../../libs/store/src/index.js';
import type { EventResponseDto, ListEventsResponseDto } from './events.dto.js';
import { StreamSlots } from './stream-slots.service.js';

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
 */
@Injectable()
export class EventStreamService implements OnModuleDestroy {
  // One message per event, shared by every stream that receives it.
  private readonly messages = new WeakMap<StoredEvent, MessageEvent>();

  constructor(
    @Inject(EventReader) private readonly reader: EventReader,
    @Inject(EventTail) private readonly tail: EventTail,
    @Inject(StreamSlots) private readonly slots: StreamSlots,
  ) {}

  async list(since: string, limit: number): Promise<ListEventsResponseDto> {
    const from = await this.position(since);
    const events = await this.reader.readAfter(from, limit);
    const last = events[events.length - 1];
    return { items: events.map(eventItem), nextCursor: cursorOf(last ?? from) };
  }

  /** Throws {@link TooManyStreamsError} (before anything is sent) when the caller or the process is at its cap. */
  stream(since: string | undefined, caller: string): Observable<MessageEvent> {
    const release = this.slots.acquire(caller);
    return new Observable<MessageEvent>((subscriber) => {
      let closed = false;
      let subscription: TailSubscription | undefined;
      const start = async () => {
        const from = since === undefined ? undefined : await this.position(since);
        if (closed) return;
        subscription = this.tail.subscribe(from, {
          next: (events) => {
            for (const e of events) subscriber.next(this.message(e));
          },
          error: (e) => subscriber.error(e),
          complete: () => subscriber.complete(),
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
