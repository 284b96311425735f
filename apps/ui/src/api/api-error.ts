/** An answer of the API that is not a success: the status and the API's `{ code, message }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What to tell the reader about a failed call, in words. */
export function describeError(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.status === 404 && e.code === 'object-not-found') return 'This object is not found, or not visible to you.';
    if (e.status === 401) return 'The API needs a bearer token.';
    if (e.status === 403) return `Forbidden: ${e.message}`;
    return `${e.code}: ${e.message}`;
  }
  return e instanceof Error ? e.message : String(e);
}
