import { z } from 'zod';

export const replayRequestSchema = z.object({
  scope: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('all') }),
      z.object({ kind: z.literal('cluster'), cluster: z.string().min(1) }),
      z.object({ kind: z.literal('object'), objectId: z.string().regex(/^\d{1,19}$/, 'must be an object id') }),
    ])
    .describe('What to rebuild: everything (into fresh tables swapped in when caught up), one cluster, or one object'),
});
export type ReplayRequestDto = z.output<typeof replayRequestSchema>;

export const replayResponseSchema = z.object({ jobId: z.string(), scope: replayRequestSchema.shape.scope, requestedAt: z.string() });
export type ReplayResponseDto = z.output<typeof replayResponseSchema>;
