import { z } from 'zod';
import { clusterParam, atParam, managerParam, managerRefSchema, noteSchema, ownerSchema, pageOf, pageParams, pathParam, schemaUsedSchema, sinceSchema } from './common.dto.js';

export const listObjectsRequestSchema = z.object({
  cluster: clusterParam,
  group: z.string().optional().describe('API group ("" for the core group)'),
  version: z.string().min(1).optional(),
  kind: z.string().min(1).optional(),
  namespace: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  manager: managerParam.optional().describe('Only objects where this manager owns a field (as of at= when given)'),
  at: atParam,
  ...pageParams,
});
export type ListObjectsRequestDto = z.output<typeof listObjectsRequestSchema>;

export const objectItemSchema = z.object({
  id: z.string(),
  cluster: z.string(),
  uid: z.string(),
  group: z.string(),
  version: z.string(),
  kind: z.string(),
  namespace: z.string().nullable(),
  name: z.string(),
  deleted: z.boolean(),
  lastSeq: z.string(),
  lastAt: z.string(),
});
export const listObjectsResponseSchema = pageOf(objectItemSchema);
export type ListObjectsResponseDto = z.output<typeof listObjectsResponseSchema>;

export const ownershipRequestSchema = z.object({
  at: atParam,
  values: z.enum(['true', 'false']).default('false').transform((v) => v === 'true').describe("true: every leaf of the tree also carries its value ('value'; no key where the object has none)"),
});
export type OwnershipRequestDto = z.output<typeof ownershipRequestSchema>;

export const fieldRequestSchema = z.object({ path: pathParam, at: atParam });
export type FieldRequestDto = z.output<typeof fieldRequestSchema>;

export const transitionsRequestSchema = z.object({ at: atParam, ...pageParams });
export type TransitionsRequestDto = z.output<typeof transitionsRequestSchema>;

interface OwnershipNodeShape {
  segment: string;
  path: string;
  fieldsV1Path: string;
  owned: boolean;
  owners: z.output<typeof ownerSchema>[];
  children: OwnershipNodeShape[];
  value?: unknown;
}
export const ownershipNodeSchema: z.ZodType<OwnershipNodeShape> = z.object({
  segment: z.string(),
  path: z.string(),
  fieldsV1Path: z.string(),
  owned: z.boolean(),
  owners: z.array(ownerSchema),
  get children() {
    return z.array(ownershipNodeSchema);
  },
  value: z.unknown().optional().describe('With ?values=true, a leaf\'s value in the object (absent where it has none)'),
});
export const ownershipResponseSchema = z.object({
  object: objectItemSchema,
  asOf: sinceSchema,
  schema: schemaUsedSchema,
  tree: ownershipNodeSchema,
});
export type OwnershipResponseDto = z.output<typeof ownershipResponseSchema>;

export const fieldResponseSchema = z.object({
  path: z.string(),
  fieldsV1Path: z.string(),
  present: z.boolean(),
  value: z.unknown().nullable(),
  owners: z.array(ownerSchema),
  effectiveOwners: z.array(ownerSchema.extend({ via: z.string() })).describe('Owners through an owned ancestor or descendant'),
  deleted: z.boolean(),
  asOf: sinceSchema,
  schema: schemaUsedSchema,
  notes: z.array(noteSchema).describe('Notes on the owners: entry-at-other-version (an owner recorded at another API version: read through the conversion, or kept as recorded)'),
});
export type FieldResponseDto = z.output<typeof fieldResponseSchema>;

export const transitionTypeSchema = z.enum(['acquired', 'shared', 'taken', 'forced', 'pruned', 'kept', 'removed', 'orphaned']);

const transitionCommon = {
  at: z.string(),
  seq: z.string(),
  type: transitionTypeSchema,
  manager: z.string().nullable(),
  operation: z.enum(['Apply', 'Update']).nullable(),
  subresource: z.string().nullable(),
  apiVersion: z.string().nullable(),
  owners: z.array(managerRefSchema).describe('Owners right after the transition'),
  from: z.array(managerRefSchema).describe('Owners that lost the field'),
  valueChanged: z.boolean(),
  reconstructed: z.boolean(),
  notes: z.array(z.string()),
};

export const fieldHistoryResponseSchema = z.object({
  path: z.string(),
  fieldsV1Path: z.string(),
  transitions: z.array(z.object(transitionCommon)),
  values: z.array(z.object({ at: z.string(), seq: z.string(), present: z.boolean(), value: z.unknown().nullable(), reconstructed: z.boolean() })),
  schema: schemaUsedSchema,
});
export type FieldHistoryResponseDto = z.output<typeof fieldHistoryResponseSchema>;

export const transitionsResponseSchema = pageOf(z.object({ ...transitionCommon, path: z.string(), fieldsV1Path: z.string() }));
export type TransitionsResponseDto = z.output<typeof transitionsResponseSchema>;

export const explainResponseSchema = z.object({
  path: z.string(),
  fieldsV1Path: z.string(),
  present: z.boolean(),
  cause: z.string().describe('A stable code: co-owned-after-release, update-manager-never-releases, client-side-apply-leftover, atomic-parent, never-applied, pruned, …'),
  causes: z.array(z.string()).describe('Every cause that applies, most specific first (the engine order)'),
  message: z.string(),
  releasedBy: z.object({ manager: z.string(), operation: z.enum(['Apply', 'Update']), subresource: z.string().nullable(), at: z.string().nullable(), seq: z.string().nullable() }).nullable(),
  remainingOwners: z.array(
    z.object({
      manager: z.string(),
      operation: z.enum(['Apply', 'Update']),
      subresource: z.string(),
      apiVersion: z.string().nullable(),
      since: z.string().nullable(),
      sinceSeq: z.string().nullable(),
      via: z.string(),
      index: z.number().describe('Index of its entry in metadata.managedFields'),
    }),
  ),
  remedies: z.array(
    z.object({
      kind: z.string(),
      summary: z.string(),
      command: z.string().nullable(),
      commands: z.array(z.string()),
      patch: z.array(z.record(z.string(), z.unknown())).nullable(),
      warning: z.string().nullable(),
    }),
  ),
  notes: z.array(noteSchema),
  objectDeleted: z.boolean(),
  schema: schemaUsedSchema,
});
export type ExplainResponseDto = z.output<typeof explainResponseSchema>;
