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
