import { StandardSchemaValidationPipe } from '@nestjs/common';

/** A request that does not match its DTO schema; the exception filter answers 400 with every issue. */
export class RequestValidationError extends Error {
  readonly code = 'invalid-request' as const;
  constructor(readonly issues: readonly { path: string; message: string }[]) {
    super(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '));
  }
}

type IssuePath = readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;

/**
 * The one global validation pipe: every handler parameter declared with `{ schema }` (a zod DTO
 * schema) is validated and converted by it; the same schemas feed the OpenAPI document.
 */
export function createValidationPipe(): StandardSchemaValidationPipe {
  return new StandardSchemaValidationPipe({
    transform: true,
    exceptionFactory: (issues) =>
      new RequestValidationError(
        issues.map((i) => ({
          path: ((i.path as IssuePath) ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.'),
          message: i.message,
        })),
      ),
  });
}
