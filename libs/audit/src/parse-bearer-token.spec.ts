import { AuthError } from './auth.error.js';
import { parseBearerToken } from './parse-bearer-token.js';

describe('parseBearerToken', () => {
  it.each([
    ['Bearer abc.def-ghi_jkl', 'abc.def-ghi_jkl'],
    ['bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln', 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln'],
    ['BEARER a+b/c==', 'a+b/c=='],
  ])('%s → the token', (header, token) => expect(parseBearerToken(header)).toBe(token));

  it.each([
    [undefined, 'no credentials'],
    ['', 'no credentials'],
    ['Basic dXNlcjpwYXNz', 'the scheme must be Bearer'],
    ['Bearer', 'expected Bearer followed by one token'],
    ['Bearer ', 'expected Bearer followed by one token'],
    ['Bearer a b', 'expected Bearer followed by one token'],
    ['Bearer a\u0000b', 'expected Bearer followed by one token'],
    [['Bearer a', 'Bearer b'], 'sent more than once'],
  ])('%j → unauthenticated (%s)', (header, message) => {
    let error: unknown;
    try {
      parseBearerToken(header as string | string[] | undefined);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'unauthenticated' });
    expect((error as Error).message).toContain(message);
  });

  it('never echoes the credentials', () => {
    expect(() => parseBearerToken('Basic c2VjcmV0')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('c2VjcmV0') }));
  });
});
