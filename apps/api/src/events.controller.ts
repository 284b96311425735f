import { Controller, Get, Inject, Query, Req, Sse, type MessageEvent } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { errorSchema } from './common.dto.js';
import { callerOf } from './caller.util.js';
import { EventStreamService } from './event-stream.service.js';
import {
  listEventsRequestSchema,
  listEventsResponseSchema,
  streamEventsRequestSchema,
  type ListEventsRequestDto,
  type ListEventsResponseDto,
  type StreamEventsRequestDto,
} from './events.dto.js';
import { CurrentCaller, RequireAccess } from './access-rule.decorator.js';
import type { Caller } from '../../../libs/audit/src/index.js';

@ApiTags('events')
@ApiBadRequestResponse({ standardSchema: errorSchema })
@Controller('v1/events')
@RequireAccess('object-list')
export class EventsController {
  constructor(@Inject(EventStreamService) private readonly events: EventStreamService) {}

  @Get()
  @ApiOperation({ summary: 'The raw event log from a position (late commits are never skipped; an event appears once projected, so every answer holds it)' })
  @ApiOkResponse({ standardSchema: listEventsResponseSchema })
  list(@Query({ schema: listEventsRequestSchema }) q: ListEventsRequestDto, @CurrentCaller() caller: Caller): Promise<ListEventsResponseDto> {
    return this.events.list(q.since, q.limit, caller, q.cluster);
  }

  @Sse('stream')
  @ApiOperation({ summary: 'Server-sent events: one "event" message per stored event once projected, id = its cursor' })
  @ApiProduces('text/event-stream')
  @ApiTooManyRequestsResponse({ standardSchema: errorSchema, description: '`too-many-streams`: STREAMS_MAX or STREAMS_MAX_PER_CALLER reached (Retry-After)' })
  stream(@Query({ schema: streamEventsRequestSchema }) q: StreamEventsRequestDto, @Req() req: Request, @CurrentCaller() caller: Caller): Observable<MessageEvent> {
    return this.events.stream(q.since, callerOf(req), caller, q.cluster);
  }
}
