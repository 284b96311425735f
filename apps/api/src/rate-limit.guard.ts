import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { APP_CONFIG, type AppConfig } from '../../../libs/config/src/index.js';
import { RateLimitedError } from './api.error.js';
import { OPEN_PATHS } from './authentication.guard.js';
import { callerOf } from './caller.util.js';

/**
 * API_RATE_LIMIT requests per caller (`callerOf`: the authenticated user, so every user behind one
 * ingress has their own budget; the client's address with AUTH_MODE=none) per fixed window of
 * API_RATE_WINDOW_MS, one budget across every route, counted in this process
 * ([express-rate-limit](https://www.npmjs.com/package/express-rate-limit)). It runs after the
 * authentication guard and before the authorization guard, so a limited caller costs no access
 * review. The open paths (probes, scrapes) are never limited, so a busy caller cannot make a pod
 * look dead. Over it: 429 `rate-limited` with `Retry-After` (the exception filter's answer).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limiter: RequestHandler | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { rateLimit: limit, rateWindowMs } = config.api;
    this.limiter =
      limit === 0
        ? null
        : rateLimit({
            windowMs: rateWindowMs,
            limit,
            keyGenerator: (req: Request) => callerOf(req),
            skip: (req: Request) => OPEN_PATHS.has(req.path),
            standardHeaders: 'draft-6', // RateLimit-Limit, -Remaining, -Reset on every answer
            legacyHeaders: false,
            handler: (req: Request, _res: Response, next: NextFunction) => {
              const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
              const retryAfter = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + rateWindowMs) - Date.now()) / 1000));
              next(new RateLimitedError(`more than ${limit} requests in ${rateWindowMs / 1000} s from this caller; retry after ${retryAfter} s`, retryAfter));
            },
          });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limiter = this.limiter;
    if (limiter === null) return true;
    const http = context.switchToHttp();
    await new Promise<void>((done, fail) => {
      void limiter(http.getRequest<Request>(), http.getResponse<Response>(), (err?: unknown) => (err ? fail(err) : done()));
    });
    return true;
  }
}
