import { z } from 'zod';
import { FINDING_TYPES, type FindingType } from '../../../libs/audit/src/index.js';
import { clusterParam, atParam, managerRefSchema, ownerSchema, pageOf, pageParams } from './common.dto.js';

export const listFindingsRequestSchema = z.object({
  cluster: clusterParam,
  type: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(',').map((t) => t.trim()).filter((t) => t !== '') : undefined))
    .pipe(z.array(z.enum(FINDING_TYPES as [FindingType, ...FindingType[]])).optional())
    .describe(`Comma-separated finding types: ${FINDING_TYPES.join(', ')}`),
  since: atParam.describe('Only findings that started at or after this moment (RFC 3339 time or sequence)'),
  at: atParam,
  ...pageParams,
});
export type ListFindingsRequestDto = z.output<typeof listFindingsRequestSchema>;

export const listFindingsResponseSchema = pageOf(
  z.object({
    type: z.enum(FINDING_TYPES as [FindingType, ...FindingType[]]),
    objectId: z.string(),
    cluster: z.string(),
    group: z.string(),
    version: z.string(),
    kind: z.string(),
    namespace: z.string().nullable(),
    name: z.string(),
    path: z.string(),
    fieldsV1Path: z.string(),
    managers: z.array(managerRefSchema),
    owners: z.array(ownerSchema),
    since: z.string(),
    sinceSeq: z.string(),
    message: z.string(),
  }),
);
export type ListFindingsResponseDto = z.output<typeof listFindingsResponseSchema>;
