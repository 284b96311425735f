import { z } from 'zod';
import { storableText } from '../../../libs/audit/src/index.js';

// Pieces shared by the /v1 request and response schemas. `at` and `path` stay strings here: the
// audit lib parses them and answers with its own error codes (`invalid-at`, `invalid-path`).

export const atParam = z
  .string()
  .min(1)
  .optional()
  .describe('Answer as of this moment: an RFC 3339 time (2026-11-21T10:42:00Z) or an event sequence number');

/** `cluster=` on lists: one cluster's objects only. */
export const clusterParam = z.string().min(1).optional().describe('Only objects of this cluster (a kubeconfig context name, as in KUBE_CONTEXTS)');

export const pathParam = z
  .string({ error: 'path is required' })
  .min(1, 'path is required')
  .describe('A field path in kubectl form (.spec.containers[name="nginx"].image) or FieldsV1 form (f:spec.f:replicas)');

/** A manager's name as the index holds it: one named with U+0000 or a lone surrogate is not indexed (audit `storableText`), and a query parameter could not carry it. */
export const managerParam = z
  .string()
  .min(1)
  .refine(storableText, 'a manager named with U+0000 or a lone surrogate is not indexed');

export const pageParams = {
  cursor: z.string().min(1).optional().describe('The nextCursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(500).default(100).describe('Items per page (1–500)'),
};

export const objectIdParams = z.object({ id: z.string().min(1).describe('Object id, as listed by GET /v1/objects') });
export type ObjectIdParamsDto = z.output<typeof objectIdParams>;

export const sinceSchema = z.object({ seq: z.string(), at: z.string() });

/** Which schema an answer was computed with. */
export const schemaUsedSchema = z
  .object({
    source: z
      .enum(['cluster', 'bundled', 'deduced'])
      .describe("cluster: the cluster's own OpenAPI (a CRD's schema, or a built-in kind whose schema differs from the bundled one); bundled: the built-in schema of Kubernetes 1.36 shipped with ssa-audit; deduced: none known, the structure deduced from the values (every list atomic)"),
    typeName: z.string().nullable().describe('The OpenAPI definition bound to the kind (null when deduced)'),
    digest: z.string().describe('Identifies the structure: equal digests give equal ownership'),
  })
  .describe('The schema the answer was computed with');

/** A note in an answer: a stable code and a sentence. */
export const noteSchema = z.object({ code: z.string(), message: z.string() });

/** A manager identity (an entry of managedFields without its fields). */
export const managerRefSchema = z.object({
  manager: z.string(),
  operation: z.enum(['Apply', 'Update']),
  subresource: z.string().optional(),
  apiVersion: z.string().optional(),
});

/** An owner: the fixed shape `{ manager, operation, subresource, apiVersion, since }` (since: RFC 3339 time). */
export const ownerSchema = z.object({
  manager: z.string(),
  operation: z.enum(['Apply', 'Update']),
  subresource: z.string(),
  apiVersion: z.string(),
  since: z.string().describe('When this identity started owning the field (RFC 3339)'),
  sinceSeq: z.string().describe('The event sequence at which it started owning the field'),
  sinceFirstObservation: z.boolean().describe('Ownership already present when the object was first observed: it may be older'),
});
export type OwnerDto = z.output<typeof ownerSchema>;

export const errorSchema = z.object({
  code: z.string(),
  message: z.string(),
  parameter: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const pageOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable() });
