import { z } from 'zod';
import { REPLAY_JOB_ID } from '../../../libs/queue/src/index.js';

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

export const replayJobParams = z.object({
  jobId: z.string().regex(REPLAY_JOB_ID, 'must be a replay job id (replay-<32 hex digits>)').describe('The jobId POST /v1/replays answered'),
});
export type ReplayJobParamsDto = z.output<typeof replayJobParams>;

export const replayStatusResponseSchema = replayResponseSchema.extend({
  state: z.enum(['waiting', 'active', 'completed', 'failed']).describe('waiting (queued behind other project jobs), active (running), completed, or failed for good (after its retries)'),
  progress: z
    .object({
      events: z.number().describe('Events folded so far'),
      objects: z.number().describe('Objects rebuilt so far'),
      percent: z.number().describe('Estimated share done, 0–100'),
    })
    .nullable()
    .describe('The last progress the worker reported; null before the first report'),
  result: z
    .object({ events: z.number(), objects: z.number(), seconds: z.number().describe('Run time of the replay') })
    .nullable()
    .describe('Once completed: what was replayed; null otherwise'),
  failedReason: z.string().nullable().describe('Once failed: the last error; null otherwise'),
});
export type ReplayStatusResponseDto = z.output<typeof replayStatusResponseSchema>;
