import { z } from 'zod';
import { managerRefSchema, noteSchema, schemaUsedSchema } from './common.dto.js';

export const simulateApplyRequestSchema = z.object({
  cluster: z.string().min(1).describe('The cluster whose latest state the apply is simulated against'),
  manager: z.string().min(1).describe('The field manager of the apply (kubectl: --field-manager, default "kubectl")'),
  force: z.boolean().default(false).describe('--force-conflicts'),
  manifest: z
    .union([z.record(z.string(), z.unknown()), z.string().min(1)])
    .describe('The applied configuration: a JSON object, or YAML text (one document)'),
});
export type SimulateApplyRequestDto = z.output<typeof simulateApplyRequestSchema>;

export const simulateApplyResponseSchema = z.object({
  objectId: z.string().nullable().describe('The tracked object applied to; null when the apply would create it'),
  conflicts: z.array(z.object({ manager: z.string(), path: z.string(), operation: z.enum(['Apply', 'Update']), subresource: z.string().nullable(), apiVersion: z.string().nullable() })),
  message: z.string().nullable().describe("Exactly what kubectl would print for the conflicts (null when there are none)"),
  kubectlStderr: z.string().nullable().describe('What `kubectl apply --server-side` writes to stderr for the conflicts, byte for byte: the message after "error: ", then kubectl\'s advice (null when there are none)'),
  pruned: z.array(z.string()),
  kept: z.array(z.object({ path: z.string(), owners: z.array(managerRefSchema) })).describe('Fields the manager releases that survive because others own them'),
  result: z.object({ object: z.record(z.string(), z.unknown()), managedFields: z.array(z.record(z.string(), z.unknown())) }).nullable(),
  schema: schemaUsedSchema,
  notes: z.array(noteSchema).describe('entry-at-other-version: live managers recorded at another API version, compared after conversion or left out'),
});
export type SimulateApplyResponseDto = z.output<typeof simulateApplyResponseSchema>;
