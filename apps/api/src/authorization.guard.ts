import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ACCESS_REVIEWER,
  AuthError,
  CLUSTER_WIDE_ACCESS,
  REPLAY_ACCESS,
  REPLAY_READ_ACCESS,
  parseAt,
  type AccessReviewer,
  type ResourceAccess,
} from '../../../libs/audit/src/index.js';
import { objectNotFound } from '../../../libs/store/src/index.js';
import { ACCESS_RULE, type AccessRule } from './access-rule.decorator.js';
import { OPEN_PATHS, type AuthenticatedRequest } from './authentication.guard.js';
import { ObjectVisibility } from './object-visibility.service.js';
import { atParam } from './common.dto.js';

const SERVICE_RULES: Record<Exclude<AccessRule, 'object' | 'object-list'>, ResourceAccess> = {
  'cluster-wide': CLUSTER_WIDE_ACCESS,
  'replay-create': REPLAY_ACCESS,
  'replay-read': REPLAY_READ_ACCESS,
};

/**
 * A caller sees what their Kubernetes RBAC lets them `get` (SubjectAccessReviews, cached briefly):
 * an object they may not see is `404 object-not-found`, never a 403 that reveals it exists; the
 * service's own resources answer 403 `forbidden`. Runs after the authentication guard.
 */
@Injectable()
export class AuthorizationGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(ACCESS_REVIEWER) private readonly reviewer: AccessReviewer | null,
    @Inject(ObjectVisibility) private readonly visibility: ObjectVisibility,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (this.reviewer === null || OPEN_PATHS.has(req.path) || !req.caller) return true;
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [context.getHandler(), context.getClass()]) ?? 'cluster-wide';
    if (rule === 'object-list') return true;
    if (rule === 'object') {
      const id = String(req.params['id'] ?? '');
      // Unknown ids go on to the handler's own 404; a hidden object gets the very same answer here.
      if ((await this.visibility.object(req.caller, id)) !== 'hidden') return true;
      // An `at` the handler's validation refuses gets that same refusal, as for an id that does not exist.
      const at = atParam.safeParse(req.query['at']);
      if (!at.success) return true;
      throw objectNotFound(id, at.data === undefined ? undefined : parseAt(at.data));
    }
    const access = SERVICE_RULES[rule];
    if (await this.reviewer.allowed(req.caller, null, access)) return true;
    throw new AuthError('forbidden', `${req.caller.username} may not ${access.verb} ${access.resource}.${access.group}${access.namespace ? ` in ${access.namespace}` : ' (cluster-wide)'}: grant it with a ClusterRole rule`);
  }
}
