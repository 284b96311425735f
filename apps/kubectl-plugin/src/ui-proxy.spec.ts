import { upstreamHeaders } from './ui-proxy.js';

describe('upstreamHeaders', () => {
  it("replaces the browser's Authorization and Host with the user's token and the service's host", () => {
    const h = upstreamHeaders({ host: '127.0.0.1:5555', authorization: 'Bearer forged', accept: 'text/html', connection: 'keep-alive' }, new URL('http://10.0.0.1:3000'), 'tok');
    expect(h).toEqual({ host: '10.0.0.1:3000', authorization: 'Bearer tok', accept: 'text/html' });
  });
  it('sends no Authorization without a token', () => {
    expect(upstreamHeaders({ authorization: 'Bearer x' }, new URL('http://svc'), undefined)).toEqual({ host: 'svc' });
  });
});
