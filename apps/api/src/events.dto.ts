import { z } from 'zod';
import { clusterParam, pageOf } from './common.dto.js';

const position = z
  .string()
  .regex(/^\d+(:\d+)?$/, 'must be a cursor "<xid>:<seq>" as returned in nextCursor, or an event sequence number')
  .describe('Where to start: a nextCursor ("<xid>:<seq>"; "0:0" is the beginning) or an event sequence number (events after it)');

/** `GET /v1/events?since=<cursor or seq>&limit=<n>&cluster=`: the raw event log from a position. */
export const listEventsRequestSchema = z.object({
  since: position.default('0:0'),
  cluster: clusterParam,
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type ListEventsRequestDto = z.output<typeof listEventsRequestSchema>;

/** `GET /v1/events/stream?since=`: server-sent events, from `since` or (without it) from now. */
export const streamEventsRequestSchema = z.object({ since: position.optional(), cluster: clusterParam });
export type StreamEventsRequestDto = z.output<typeof streamEventsRequestSchema>;

export const eventItemSchema = z.object({
  seq: z.string(),
  objectId: z.string(),
  cluster: z.string(),
  uid: z.string(),
  group: z.string(),
  version: z.string(),
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
  resourceVersion: z.string(),
  type: z.enum(['ADDED', 'MODIFIED', 'DELETED']),
  source: z.enum(['watch', 'relist', 'gap-fill']),
  observedAt: z.string(),
  cursor: z.string().describe('The position of this event (resume a list or a stream after it)'),
});
export type EventResponseDto = z.output<typeof eventItemSchema>;

export const listEventsResponseSchema = pageOf(eventItemSchema).extend({
  nextCursor: z.string().describe('Pass as since= to continue; the same position when nothing new is readable yet'),
});
export type ListEventsResponseDto = z.output<typeof listEventsResponseSchema>;
