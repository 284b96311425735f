import { errorOf } from './service-client.js';

describe('errorOf', () => {
  it('maps an unknown object to not-found and everything else to an error', () => {
    expect(errorOf(404, { code: 'object-not-found', message: 'no object 7' })).toMatchObject({ kind: 'not-found', message: 'no object 7' });
    expect(errorOf(400, { code: 'invalid-path', message: 'unexpected "["' })).toMatchObject({ kind: 'failed', message: 'invalid-path: unexpected "["' });
    expect(errorOf(401, { code: 'unauthenticated', message: 'no token' })).toMatchObject({ kind: 'failed', message: expect.stringContaining('kubectl create token') });
    expect(errorOf(503, {})).toMatchObject({ kind: 'failed', message: 'HTTP 503' });
  });
});
