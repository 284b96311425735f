import { z } from 'zod';
import { clusterParam, atParam, managerParam, ownerSchema, pageOf, pageParams } from './common.dto.js';
import { objectItemSchema } from './objects.dto.js';

export const listManagersRequestSchema = z.object({
  cluster: clusterParam,
  at: atParam,
  ...pageParams,
});
export type ListManagersRequestDto = z.output<typeof listManagersRequestSchema>;

export const managerItemSchema = z.object({
  manager: z.string(),
  identities: z.array(z.object({ operation: z.enum(['Apply', 'Update']), apiVersion: z.string(), subresource: z.string() })),
  objectCount: z.number(),
  fieldCount: z.number(),
});
export const listManagersResponseSchema = pageOf(managerItemSchema);
export type ListManagersResponseDto = z.output<typeof listManagersResponseSchema>;

export const managerNameParams = z.object({ name: managerParam });
export type ManagerNameParamsDto = z.output<typeof managerNameParams>;

export const managerFieldsRequestSchema = z.object({
  cluster: clusterParam,
  kind: z.string().min(1).optional(),
  namespace: z.string().min(1).optional(),
  at: atParam,
  ...pageParams,
});
export type ManagerFieldsRequestDto = z.output<typeof managerFieldsRequestSchema>;

export const managerFieldsResponseSchema = pageOf(
  z.object({
    object: objectItemSchema.pick({ id: true, cluster: true, uid: true, group: true, version: true, kind: true, namespace: true, name: true }),
    fields: z.array(ownerSchema.omit({ manager: true, sinceFirstObservation: true }).extend({ path: z.string(), fieldsV1Path: z.string() })),
  }),
);
export type ManagerFieldsResponseDto = z.output<typeof managerFieldsResponseSchema>;
