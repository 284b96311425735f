import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ANONYMOUS_CALLER, AuthError, TOKEN_REVIEWER, parseBearerToken, type Caller, type TokenReviewer } from '../../../libs/audit/src/index.js';

/** Paths every probe and scraper reaches without credentials (protect /metrics with a NetworkPolicy). */
export const OPEN_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** A request with the caller the guard authenticated. */
export type AuthenticatedRequest = Request & { caller?: Caller };

/**
 * Every request but the probes names its caller: with `AUTH_MODE=kubernetes` a bearer token the
 * cluster accepts (a TokenReview, cached briefly), else 401 `unauthenticated`; with `AUTH_MODE=none`
 * (loopback only) the anonymous caller.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  /** `null` exactly when AUTH_MODE=none (KubeAuthModule). */
  constructor(@Inject(TOKEN_REVIEWER) private readonly reviewer: TokenReviewer | null) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (OPEN_PATHS.has(req.path)) return true;
    if (this.reviewer === null) {
      req.caller = ANONYMOUS_CALLER;
      return true;
    }
    const review = await this.reviewer.review(parseBearerToken(req.headers.authorization));
    if (!review.authenticated) throw new AuthError('unauthenticated', review.reason);
    req.caller = review.caller;
    return true;
  }
}
