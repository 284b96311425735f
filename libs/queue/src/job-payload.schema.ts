import { z } from 'zod';
import { observationSchema } from '../../common/src/index.js';
import type { JobName } from './queue.constants.js';

const objectRef = z.object({ cluster: z.string().min(1), uid: z.string().min(1) });

/** Payload schema of every job; payloads are validated when a job is built and when it is decoded. */
export const jobPayloadSchemas = {
  'ingest-observations': z.object({ observations: z.array(observationSchema).min(1) }),
  'project-events': z.object({ objects: z.array(objectRef) }),
  'maintain-partitions': z.object({ reason: z.enum(['startup', 'schedule', 'manual']) }),
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

export function parsePayload<N extends JobName>(name: N, data: unknown): JobPayload<N> {
  const r = jobPayloadSchemas[name].safeParse(data);
  if (!r.success) throw new InvalidJobPayloadError(name, r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  return r.data as JobPayload<N>;
}
