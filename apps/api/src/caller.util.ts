import type { Request } from 'express';

/**
 * Who a request counts against for per-caller limits. For now the client's address; once requests
 * are authenticated, the user (the one place to change).
 */
export function callerOf(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
