import { ANONYMOUS_CALLER } from '../../../libs/audit/src/index.js';
import type { AuthenticatedRequest } from './authentication.guard.js';

/**
 * Who a request counts against for per-caller limits: the authenticated user, or (without
 * authentication, AUTH_MODE=none) the client's address.
 */
export function callerOf(req: AuthenticatedRequest): string {
  const user = req.caller?.username;
  if (user && user !== ANONYMOUS_CALLER.username) return `user:${user}`;
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
