import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppConfig } from '../../../libs/config/src/index.js';
import { RateLimitedError } from './api.error.js';
import { OPEN_PATHS } from './authentication.guard.js';
import { callerOf } from './caller.util.js';

/**
 * API_RATE_LIMIT requests per client address (`callerOf` before authentication: the limiter runs
 * ahead of the guards, so no user is known yet; probes and scrapes, the open paths, are never
 * limited, so a busy caller cannot make a pod look dead) per fixed window
 * of API_RATE_WINDOW_MS, one budget across every route, counted in this process. Installed before
 * the body parsers, so a limited caller's body is never read. Over it: the API's own 429 error
 * (the exception filter answers `{ code: 'rate-limited' }` with `Retry-After`).
 */
export function createRateLimit(config: AppConfig): RequestHandler {
  const { rateLimit: limit, rateWindowMs } = config.api;
  if (limit === 0) return (_req, _res, next) => next();
  return rateLimit({
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
