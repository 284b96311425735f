import { z } from 'zod';
import type { Observation } from './observation.types.js';

const nonEmpty = z.string().min(1);

const managedFieldsEntry = z.looseObject({
  manager: z.string().optional(),
  operation: z.string().optional(),
  apiVersion: z.string().optional(),
  time: z.string().optional(),
  fieldsType: z.string().optional(),
  fieldsV1: z.unknown().optional(),
  subresource: z.string().optional(),
});

/** Validates an observation at the queue boundary (when a job is built and when it is decoded). */
export const observationSchema = z.object({
  cluster: z.string().regex(/^[A-Za-z0-9._-]{1,253}$/, 'cluster names are 1–253 letters, digits, ".", "_" or "-"'),
  resource: z.object({ group: z.string(), version: nonEmpty, resource: nonEmpty, kind: nonEmpty }),
  type: z.enum(['ADDED', 'MODIFIED', 'DELETED']),
  source: z.enum(['watch', 'relist', 'gap-fill']),
  observedAt: z.iso.datetime({ offset: true }),
  object: z.looseObject({
    metadata: z.looseObject({
      uid: nonEmpty,
      name: nonEmpty,
      namespace: z.string().optional(),
      resourceVersion: nonEmpty,
      managedFields: z.array(managedFieldsEntry).optional(),
      annotations: z.record(z.string(), z.string()).optional(),
    }),
  }),
}) satisfies z.ZodType<Observation, unknown>;
