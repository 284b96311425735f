import { z } from 'zod';
import { observationSchema, toObservation, type Observation } from '../../common/src/index.js';
import type { JobName } from './queue.constants.js';

const objectRef = z.object({ cluster: z.string().min(1), uid: z.string().min(1) });

/** The watcher's resume positions an ingest job ends (see WatchCheckpoint). */
const watchCheckpointSchema = z.object({
  cluster: z.string().min(1),
  clusterUid: z.string(),
  flush: z.string().regex(/^\d{1,19}$/, 'must be a decimal integer'),
  lane: z.number().int().min(0),
  lanes: z.number().int().min(1),
  positions: z.record(z.string().min(1), z.string().min(1).nullable()),
});

/** Payload schema of every job; payloads are validated when a job is built and when it is decoded. */
export const jobPayloadSchemas = {
  // Empty observations only with a checkpoint: the lanes that had nothing in a flush still commit its positions.
  'ingest-observations': z
    .object({ observations: z.array(observationSchema), checkpoint: watchCheckpointSchema.optional() })
    .refine((d) => d.observations.length > 0 || d.checkpoint !== undefined, { message: 'no observations and no checkpoint', path: ['observations'] }),
  'project-events': z.object({ objects: z.array(objectRef) }),
  // Replays share the project queue's single lane with the live projector, so the two never interleave.
  'replay-projections': z.object({
    scope: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('all') }),
      z.object({ kind: z.literal('cluster'), cluster: z.string().min(1) }),
      z.object({ kind: z.literal('object'), objectId: z.string().regex(/^\d{1,19}$/, 'must be an object id') }),
    ]),
    requestedAt: z.string().min(1),
  }),
  'maintain-partitions': z.object({ reason: z.enum(['startup', 'schedule', 'manual']) }),
  'refresh-statistics': z.object({ reason: z.enum(['schedule', 'manual']) }),
  'compact-manager-totals': z.object({ reason: z.enum(['schedule', 'manual']) }),
  'store-api-schemas': z.object({
    cluster: observationSchema.shape.cluster,
    fetchedAt: z.iso.datetime({ offset: true }),
    documents: z.array(z.object({ path: z.string().min(1), format: z.enum(['openapi-v3', 'openapi-v2']), document: z.looseObject({}) })),
    /** Every path the cluster serves now: stored documents of other paths are dropped. */
    paths: z.array(z.string().min(1)),
  }),
} as const satisfies Record<JobName, z.ZodType>;

export type JobPayload<N extends JobName> = z.output<(typeof jobPayloadSchemas)[N]>;

/** Thrown for a payload that does not match its schema (a poison job: retrying cannot help). */
export class InvalidJobPayloadError extends Error {
  readonly code = 'INVALID_JOB_PAYLOAD' as const;
  constructor(readonly jobName: string, readonly issues: readonly string[]) {
    super(`invalid ${jobName} payload: ${issues.join('; ')}`);
    this.name = 'InvalidJobPayloadError';
  }
}

/**
 * The ingest payload through {@link toObservation} (and the small checkpoint through its schema), or
 * null when anything fails (then zod decides and words it).
 */
function fastIngestPayload(data: unknown): { observations: Observation[]; checkpoint?: z.output<typeof watchCheckpointSchema> } | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const raw = (data as { checkpoint?: unknown }).checkpoint;
  const checkpoint = raw === undefined ? undefined : watchCheckpointSchema.safeParse(raw);
  if (checkpoint && !checkpoint.success) return null;
  const list = (data as { observations?: unknown }).observations;
  if (!Array.isArray(list) || (list.length === 0 && !checkpoint)) return null;
  const observations: Observation[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const o = toObservation(list[i]);
    if (o === null) return null;
    observations[i] = o;
  }
  return checkpoint ? { observations, checkpoint: checkpoint.data } : { observations };
}

export function parsePayload<N extends JobName>(name: N, data: unknown): JobPayload<N> {
  if (name === 'ingest-observations') {
    const fast = fastIngestPayload(data);
    if (fast !== null) return fast as JobPayload<N>;
  }
  const r = jobPayloadSchemas[name].safeParse(data);
  if (!r.success) throw new InvalidJobPayloadError(name, r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  return r.data as JobPayload<N>;
}
