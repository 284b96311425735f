/**
 * Why a request was refused before any answer: no usable credentials (`unauthenticated`), not
 * allowed (`forbidden`), or the cluster that authenticates could not be asked (`auth-unavailable`).
 * Only the API's exception filter maps codes to HTTP statuses.
 */
export type AuthErrorCode = 'unauthenticated' | 'forbidden' | 'auth-unavailable';

export class AuthError extends Error {
  override readonly name = 'AuthError';
  constructor(
    readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
  }
}
