import { Catch, HttpException, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { LOGGER } from '../../../libs/common/src/index.js';
import { AuditError, AuthError, type AuditErrorCode, type AuthErrorCode } from '../../../libs/audit/src/index.js';
import { StoreQueryError, type StoreQueryErrorCode } from '../../../libs/store/src/index.js';
import { ApiNotFoundError, RateLimitedError, TooManyStreamsError } from './api.error.js';
import { RequestValidationError } from './validation.pipe.js';

function auditStatus(code: AuditErrorCode): number {
  switch (code) {
    case 'invalid-event':
    case 'invalid-path':
    case 'invalid-at':
    case 'invalid-manifest':
      return 400;
    case 'object-mismatch':
      return 500; // a bug of ours, not of the caller
    default:
      return assertUnreachable(code);
  }
}

function authStatus(code: AuthErrorCode): number {
  switch (code) {
    case 'unauthenticated':
      return 401;
    case 'forbidden':
      return 403;
    case 'auth-unavailable':
      return 503;
    default:
      return assertUnreachable(code);
  }
}

function storeStatus(code: StoreQueryErrorCode): number {
  switch (code) {
    case 'object-not-found':
      return 404;
    case 'invalid-cursor':
      return 400;
    default:
      return assertUnreachable(code);
  }
}

function assertUnreachable(x: never): never {
  throw new Error(`unhandled error code ${String(x)}`);
}

/** The one place where errors become HTTP answers: `{ code, message, parameter?, issues? }`. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) {
      this.logger.error({ err: error }, 'request failed after the answer started');
      res.end();
      return;
    }
    // Nest's Express adapter wraps body-parser's errors in an HttpException (the original as its cause).
    const bodyError = [error, error instanceof HttpException ? error.cause : undefined].find(isBodyParserError);
    if (error instanceof RequestValidationError) {
      res.status(400).json({ code: error.code, message: error.message, parameter: error.issues[0]?.path || undefined, issues: error.issues });
    } else if (error instanceof AuditError) {
      const status = auditStatus(error.code);
      if (status >= 500) this.logger.error({ err: error }, 'request failed');
      res.status(status).json({ code: error.code, message: error.message, parameter: error.parameter, engineCode: error.engineCode });
    } else if (error instanceof AuthError) {
      const status = authStatus(error.code);
      if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="ssa-audit"');
      if (status === 503) this.logger.error({ err: error }, 'authentication unavailable');
      res.status(status).json({ code: error.code, message: error.message });
    } else if (error instanceof StoreQueryError) {
      res.status(storeStatus(error.code)).json({ code: error.code, message: error.message, parameter: error.parameter });
    } else if (error instanceof ApiNotFoundError) {
      res.status(404).json({ code: error.code, message: error.message, parameter: error.parameter });
    } else if (error instanceof TooManyStreamsError || error instanceof RateLimitedError) {
      res.status(429).setHeader('Retry-After', String(error.retryAfterSeconds));
      res.json({ code: error.code, message: error.message });
    } else if (bodyError?.type === 'entity.too.large') {
      // Refused before it is read into memory (Content-Length) or as soon as it passes the limit.
      res.status(413).json({ code: 'payload-too-large', message: `the request body is larger than ${bodyError.limit} bytes (API_BODY_LIMIT)` });
    } else if (bodyError) {
      res.status(bodyError.status).json({ code: 'invalid-body', message: bodyError.message, parameter: 'body' });
    } else if (error instanceof HttpException) {
      res.status(error.getStatus()).json({ code: 'HTTP_' + error.getStatus(), message: error.message });
    } else {
      this.logger.error({ err: error }, 'request failed');
      res.status(500).json({ code: 'INTERNAL', message: 'internal error' });
    }
  }
}

function isBodyParserError(e: unknown): e is { status: number; message: string; type: string; limit?: number } {
  const x = e as { status?: unknown; type?: unknown };
  return typeof x?.type === 'string' && typeof x.status === 'number' && x.status >= 400 && x.status < 500;
}
