import { Catch, HttpException, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { LOGGER } from '../../../libs/common/src/index.js';
import { RequestValidationError } from './zod-validation.pipe.js';

/** The one place where errors become HTTP answers. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (error instanceof RequestValidationError) {
      res.status(400).json({ code: error.code, message: 'invalid request', issues: error.issues });
    } else if (error instanceof HttpException) {
      res.status(error.getStatus()).json({ code: 'HTTP_' + error.getStatus(), message: error.message });
    } else {
      this.logger.error({ err: error }, 'request failed');
      res.status(500).json({ code: 'INTERNAL', message: 'internal error' });
    }
  }
}
