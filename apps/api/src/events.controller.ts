import { Controller, Get, Inject, Query } from '@nestjs/common';
import { EventReader } from '../../../libs/store/src/index.js';
import { listEventsRequestSchema, type ListEventsRequestDto, type ListEventsResponseDto } from './events.dto.js';
import { ZodValidationPipe } from './zod-validation.pipe.js';

@Controller('v1/events')
export class EventsController {
  constructor(@Inject(EventReader) private readonly reader: EventReader) {}

  @Get()
  async list(@Query(new ZodValidationPipe(listEventsRequestSchema)) q: ListEventsRequestDto): Promise<ListEventsResponseDto> {
    const events = await this.reader.readAfter(q.after, q.limit);
    const last = events[events.length - 1];
    return {
      events: events.map((e) => ({
        seq: e.seq, cluster: e.cluster, uid: e.uid, kind: e.kind, namespace: e.namespace, name: e.name,
        resourceVersion: e.resourceVersion, type: e.eventType, source: e.source, observedAt: e.observedAt.toISOString(),
      })),
      next: last ? `${last.xid}:${last.seq}` : `${q.after.xid}:${q.after.seq}`,
    };
  }
}
