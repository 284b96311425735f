import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import type { Logger } from 'pino';
import { LOGGER } from '../../../libs/common/src/index.js';
import type { AuthenticatedRequest } from './authentication.guard.js';

/** One JSON line per request once it is answered: user, groups, method, path, status, ms. */
@Injectable()
export class AccessLogMiddleware implements NestMiddleware {
  private readonly log: Logger;

  constructor(@Inject(LOGGER) logger: Logger) {
    this.log = logger.child({ component: 'access' });
  }

  use(req: AuthenticatedRequest, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      this.log.info(
        { user: req.caller?.username ?? null, groups: req.caller?.groups ?? [], method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    next();
  }
}
