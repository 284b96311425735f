import { z } from 'zod';
import { clusterParam, pageOf, pageParams } from './common.dto.js';

/** `GET /v1/dead-letters?cluster&cursor&limit`: observations that could never be stored, newest first. */
export const listDeadLettersRequestSchema = z.object({
  cluster: clusterParam,
  ...pageParams,
});
export type ListDeadLettersRequestDto = z.output<typeof listDeadLettersRequestSchema>;

export const deadLetterSchema = z.object({
  id: z.string(),
  cluster: z.string(),
  uid: z.string(),
  resourceVersion: z.string(),
  group: z.string(),
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
  reason: z.string().describe('The error that made the observation impossible to store'),
  errorCode: z.string().nullable().describe('The database error code (SQLSTATE) when there is one'),
  jobId: z.string().describe('The ingest job that carried it'),
  failedAt: z.string(),
  observation: z.looseObject({}).nullable().describe('The observation as the queue carried it (values of sensitive kinds hashed); null when it cannot be kept'),
});
export type DeadLetterResponseDto = z.output<typeof deadLetterSchema>;

export const listDeadLettersResponseSchema = pageOf(deadLetterSchema);
export type ListDeadLettersResponseDto = z.output<typeof listDeadLettersResponseSchema>;
