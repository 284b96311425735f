import type { Request } from 'express';
import type { Caller } from '../../../libs/audit/src/index.js';

/**
 * Who a request counts against for per-caller limits: the authenticated user, or (without
 * authentication, AUTH_MODE=none) the client's address.
 */
export function callerOf(req: Request & { caller?: Caller }): string {
  const user = req.caller?.username;
  if (user && user !== 'system:anonymous') return `user:${user}`;
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
