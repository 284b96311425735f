import { SetMetadata, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ANONYMOUS_CALLER, type Caller } from '../../../libs/audit/src/index.js';
import type { AuthenticatedRequest } from './authentication.guard.js';

/**
 * What a route needs of the caller's Kubernetes RBAC (AUTH_MODE=kubernetes):
 * - `object`: `get` on the object of `:id` (in its cluster and namespace); otherwise 404, as if it did not exist;
 * - `object-list`: nothing up front; the answer keeps only the objects the caller may `get` (see ObjectVisibility);
 * - `cluster-wide`: `list objects.ssa-audit.io` cluster-wide (the dead letters: raw observations of any object);
 * - `replay-create` / `replay-read`: `create` / `get` on `replays.ssa-audit.io`.
 * A route without a rule is `cluster-wide`.
 */
export type AccessRule = 'object' | 'object-list' | 'cluster-wide' | 'replay-create' | 'replay-read';

export const ACCESS_RULE = 'ssa-audit:access-rule';

export const RequireAccess = (rule: AccessRule) => SetMetadata(ACCESS_RULE, rule);

/** The caller the authentication guard established. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => ctx.switchToHttp().getRequest<AuthenticatedRequest>().caller ?? ANONYMOUS_CALLER);
