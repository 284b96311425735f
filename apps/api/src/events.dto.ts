import { z } from 'zod';

/** `GET /v1/events?after=<xid>:<seq>&limit=<n>`: the raw event log from a position. */
export const listEventsRequestSchema = z.object({
  after: z
    .string()
    .regex(/^\d+:\d+$/, 'must be a position "<xid>:<seq>" as returned in "next"')
    .default('0:0')
    .transform((s) => {
      const [xid, seq] = s.split(':') as [string, string];
      return { xid, seq };
    }),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export type ListEventsRequestDto = z.output<typeof listEventsRequestSchema>;

export interface EventResponseDto {
  readonly seq: string;
  readonly cluster: string;
  readonly uid: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly resourceVersion: string;
  readonly type: string;
  readonly source: string;
  readonly observedAt: string;
}

export interface ListEventsResponseDto {
  readonly events: readonly EventResponseDto[];
  /** Pass as `after` to continue; the same position when nothing new is readable yet. */
  readonly next: string;
}
