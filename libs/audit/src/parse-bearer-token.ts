import { AuthError } from './auth.error.js';

// RFC 6750's b64token: the characters a bearer token may be made of.
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MAX_TOKEN_LENGTH = 16_384;

/**
 * The bearer token of an `Authorization` header (RFC 6750: scheme case-insensitive, one space, a
 * b64token). Throws {@link AuthError} `unauthenticated` for a missing or malformed header, naming what
 * is wrong without echoing the credentials.
 */
export function parseBearerToken(header: string | readonly string[] | undefined): string {
  if (header === undefined || header === '') throw new AuthError('unauthenticated', 'no credentials: send Authorization: Bearer <token>');
  if (typeof header !== 'string') throw new AuthError('unauthenticated', 'malformed Authorization header: sent more than once');
  const space = header.indexOf(' ');
  const scheme = space < 0 ? header : header.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') throw new AuthError('unauthenticated', 'malformed Authorization header: the scheme must be Bearer');
  const token = header.slice(space + 1);
  if (space < 0 || token === '' || token.length > MAX_TOKEN_LENGTH || !B64TOKEN.test(token)) {
    throw new AuthError('unauthenticated', 'malformed Authorization header: expected Bearer followed by one token');
  }
  return token;
}
