import { Injectable, type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';

/** A request that does not match its DTO schema; the exception filter answers 400. */
export class RequestValidationError extends Error {
  readonly code = 'REQUEST_INVALID' as const;
  constructor(readonly issues: readonly { path: string; message: string }[]) {
    super('invalid request');
  }
}

/** Validates and converts a request part with a zod schema. */
@Injectable()
export class ZodValidationPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    const r = this.schema.safeParse(value);
    if (!r.success) throw new RequestValidationError(r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    return r.data;
  }
}
