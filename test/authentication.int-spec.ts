import { Writable } from 'node:stream';
import { pino } from 'pino';
import { startApplication, type RunningApplication } from '../apps/bootstrap.js';
import { createTestContext, freePort, type TestContext } from '../libs/testing/src/index.js';
import { KubectlSandbox } from '../libs/testing/src/kubectl-sandbox.js';

// AUTH_MODE=kubernetes against the sandbox: tokens are reviewed by the cluster (TokenReview), the
// probes stay open, every request lands in the access log. Tokens come from the real kubectl.

describe('authentication (AUTH_MODE=kubernetes, TokenReview against the sandbox)', () => {
  let ctx: TestContext;
  let kube: KubectlSandbox;
  let app: RunningApplication;
  const lines: Record<string, unknown>[] = [];
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext('auth');
    kube = await KubectlSandbox.start();
    await kube.ok(['create', 'namespace', 'team-a']);
    await kube.ok(['create', 'serviceaccount', 'viewer', '-n', 'team-a']);
    token = (await kube.ok(['create', 'token', 'viewer', '-n', 'team-a'])).trim();
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString('utf8').split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    const config = ctx.config({ AUTH_MODE: 'kubernetes', API_HOST: '127.0.0.1', KUBECONFIG: kube.kubeconfig, PORT: String(await freePort()), AUTH_CACHE_TTL_MS: '1000' });
    app = await startApplication(config, { roles: ['api'], migrate: true, logger: pino({ level: 'info' }, sink) });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await kube?.close();
    await ctx?.dispose();
  });

  const get = (path: string, authorization?: string) => fetch(`${app.url}${path}`, { headers: authorization ? { authorization } : {} });

  it('probes and metrics answer without credentials', async () => {
    for (const p of ['/healthz', '/readyz', '/metrics']) expect((await get(p)).status).toBe(200);
  });

  it.each([
    ['no Authorization header', undefined, 'no credentials'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'the scheme must be Bearer'],
    ['a malformed header', 'Bearer a b', 'expected Bearer followed by one token'],
    ['a token the cluster does not know', 'Bearer not-a-token-of-this-cluster', 'not accepted'],
  ])('%s → 401 unauthenticated with WWW-Authenticate: Bearer', async (_, authorization, message) => {
    const res = await get('/v1/objects', authorization);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="ssa-audit"');
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('unauthenticated');
    expect(body.message).toContain(message);
  });

  it('a ServiceAccount token from kubectl create token is accepted, and the access log names its user', async () => {
    const res = await get('/v1/objects?limit=1', `Bearer ${token}`);
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const line = lines.find((l) => l['component'] === 'access' && l['path'] === '/v1/objects' && l['status'] === 200);
    expect(line).toMatchObject({ user: 'system:serviceaccount:team-a:viewer', method: 'GET', msg: 'request' });
    expect(line!['groups']).toEqual(expect.arrayContaining(['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated']));
    expect(typeof line!['ms']).toBe('number');
    // The denied requests are logged too, with no user.
    expect(lines.some((l) => l['component'] === 'access' && l['status'] === 401 && l['user'] === null)).toBe(true);
  });

  it('the rate limit counts by user: one user over API_RATE_LIMIT gets 429 with Retry-After, another user from the same address does not', async () => {
    await kube.ok(['create', 'serviceaccount', 'other', '-n', 'team-a']);
    const other = (await kube.ok(['create', 'token', 'other', '-n', 'team-a'])).trim();
    const config = ctx.config({
      AUTH_MODE: 'kubernetes', API_HOST: '127.0.0.1', KUBECONFIG: kube.kubeconfig, PORT: String(await freePort()), API_RATE_LIMIT: '3', API_RATE_WINDOW_MS: '60000',
    });
    const limited = await startApplication(config, { roles: ['api'], migrate: false });
    try {
      const call = (t: string) => fetch(`${limited.url}/v1/objects?limit=1`, { headers: { authorization: `Bearer ${t}` } });
      for (let i = 0; i < 3; i++) expect((await call(token)).status).toBe(200);
      const over = await call(token);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await over.json()).toMatchObject({ code: 'rate-limited' });
      expect((await call(other)).status).toBe(200);
      expect((await fetch(`${limited.url}/healthz`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
