/** An id the API itself looks up and does not find (404 `{ code, message, parameter }`). */
export class ApiNotFoundError extends Error {
  override readonly name = 'ApiNotFoundError';
  constructor(
    readonly code: 'replay-not-found',
    message: string,
    readonly parameter: string,
  ) {
    super(message);
  }
}

/** Over the cap of open event streams, per process or per caller (429 `{ code, message }` with `Retry-After`). */
export class TooManyStreamsError extends Error {
  override readonly name = 'TooManyStreamsError';
  readonly code = 'too-many-streams' as const;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Over the per-caller request rate (API_RATE_LIMIT per API_RATE_WINDOW_MS): 429 `{ code, message }` with `Retry-After`. */
export class RateLimitedError extends Error {
  override readonly name = 'RateLimitedError';
  readonly code = 'rate-limited' as const;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
