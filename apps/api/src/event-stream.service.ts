import { Inject, Injectable, type MessageEvent } from '@nestjs/common';
import { Observable } from 'rxjs';
import { EventReader, StoreQueryError, type EventPosition, type StoredEvent } from '../../../libs/store/src/index.js';
import type { EventResponseDto, ListEventsResponseDto } from './events.dto.js';

const POLL_MS = 1000;
const STREAM_PAGE = 500;

const cursorOf = (p: EventPosition) => `${p.xid}:${p.seq}`;

function eventItem(e: StoredEvent): EventResponseDto {
  return {
    seq: e.seq, objectId: e.objectId, cluster: e.cluster, uid: e.uid, group: e.group, version: e.version, kind: e.kind,
    namespace: e.namespace, name: e.name, resourceVersion: e.resourceVersion, type: e.eventType, source: e.source,
    observedAt: e.observedAt.toISOString(), cursor: cursorOf(e),
  };
}

/** The raw event log for dashboards: pages by position, and a server-sent-events stream (polling the log, never skipping a late commit). */
@Injectable()
export class EventStreamService {
  constructor(@Inject(EventReader) private readonly reader: EventReader) {}

  async list(since: string, limit: number): Promise<ListEventsResponseDto> {
    const from = await this.position(since);
    const events = await this.reader.readAfter(from, limit);
    const last = events[events.length - 1];
    return { items: events.map(eventItem), nextCursor: cursorOf(last ?? from) };
  }

  stream(since: string | undefined): Observable<MessageEvent> {
    return new Observable<MessageEvent>((subscriber) => {
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      const run = async () => {
        let position = since === undefined ? await this.reader.tail() : await this.position(since);
        while (!stopped) {
          const page = await this.reader.readAfter(position, STREAM_PAGE);
          for (const e of page) subscriber.next({ id: cursorOf(e), type: 'event', data: eventItem(e) });
          if (page.length > 0) position = page[page.length - 1]!;
          if (page.length < STREAM_PAGE) await new Promise<void>((r) => (timer = setTimeout(r, POLL_MS)));
        }
      };
      run().catch((e: unknown) => subscriber.error(e));
      return () => {
        stopped = true;
        if (timer) clearTimeout(timer);
      };
    });
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
