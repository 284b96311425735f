/** The code an error carries (a Postgres SQLSTATE, also through TypeORM's wrapper, or a Node.js errno code); null when none. */
export function errorCodeOf(e: unknown): string | null {
  const c = (e as { driverError?: { code?: unknown }; code?: unknown } | null)?.driverError?.code ?? (e as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : null;
}

/**
 * Whether an error is worth another try later: the peer is unreachable, restarting or failing over,
 * or the transaction lost a race. Anything else (a bad value, a constraint, a bug) fails the same way
 * every time. Classified by shape only (a Node.js system error's `code`, a Postgres SQLSTATE, a
 * driver's message), so it needs no driver import and works for TypeORM's wrapped errors too.
 */
export function isTransientError(e: unknown): boolean {
  for (let cause: unknown = e, depth = 0; cause !== null && typeof cause === 'object' && depth < 5; depth++) {
    const c = cause as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
    if (typeof c.code === 'string' && (NETWORK_CODES.has(c.code) || isTransientSqlState(c.code))) return true;
    if (typeof c.message === 'string' && TRANSIENT_MESSAGES.some((m) => m.test(c.message as string))) return true;
    // AggregateError (a refused connection to every address of a host) carries the real ones.
    if (Array.isArray(c.errors) && c.errors.some((x) => isTransientError(x))) return true;
    cause = c.driverError ?? c.cause;
  }
  return false;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN',
  'EAI_AGAIN', 'ENOTFOUND', 'ESOCKETTIMEDOUT', 'ERR_SOCKET_CLOSED', 'ERR_STREAM_DESTROYED',
]);

/**
 * SQLSTATEs that pass: class 08 (connection exception), 40001 serialization failure, 40P01 deadlock,
 * 53300 too many connections, 57P01–57P05 (admin/crash shutdown, cannot connect now: starting up or in
 * recovery, idle session timeout), 25006 read-only transaction (a failover promoting a replica), 55P03 lock not available.
 */
function isTransientSqlState(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || ['40001', '40P01', '53300', '57P01', '57P02', '57P03', '57P04', '57P05', '25006', '55P03'].includes(code);
}

/** What pg, ioredis and BullMQ say when the connection went away (they carry no code for these). */
const TRANSIENT_MESSAGES = [
  /Connection terminated/i,
  /connection (is )?closed/i,
  /Client has encountered a connection error/i,
  /timeout exceeded when trying to connect/i,
  /Connection is closed/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
  /Stream isn't writeable/i,
  /socket hang up/i,
  /Missing lock for job/i,
];
