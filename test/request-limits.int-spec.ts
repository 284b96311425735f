import { request } from 'node:http';
import { stringify as toYaml } from 'yaml';
import { MAX_MANIFEST_DEPTH } from '../libs/audit/src/index.js';
import { createTestContext, freePort, type TestContext } from '../libs/testing/src/index.js';
import { startApplication, type RunningApplication } from '../apps/bootstrap.js';

// What one request may cost the api role: body size, manifest depth, requests per caller.

/** A request from a given local address (127.0.0.x are all loopback on Linux): another caller. */
function getFrom(url: string, localAddress: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A ConfigMap whose data nests objects so that the whole manifest has `depth` levels. */
function nestedManifest(depth: number): Record<string, unknown> {
  let inner: unknown = 'leaf';
  for (let i = 0; i < depth - 1; i++) inner = { a: inner }; // the manifest is level 1, spec level 2, …
  // A kind of no bundled schema (its schema is deduced from the values), so any nesting is a valid object.
  return { apiVersion: 'example.com/v1', kind: 'Deep', metadata: { name: 'deep' }, spec: inner };
}

describe('request limits of the api role', () => {
  let ctx: TestContext;
  let limits: RunningApplication;
  let rated: RunningApplication;

  const post = async (base: string, path: string, body: string) => {
    const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    ctx = await createTestContext('limits');
    // Rate limit off here, so the body and depth cases are not cut short by it.
    limits = await startApplication(ctx.config({ PORT: String(await freePort()), API_BODY_LIMIT: String(256 * 1024), API_RATE_LIMIT: '0' }), {
      roles: ['api'],
      migrate: false,
    });
    rated = await startApplication(ctx.config({ PORT: String(await freePort()), API_RATE_LIMIT: '5', API_RATE_WINDOW_MS: '2000' }), {
      roles: ['api'],
      migrate: false,
    });
  });
  afterAll(async () => {
    await limits?.close();
    await rated?.close();
    await ctx?.dispose();
  });

  it('answers 413 payload-too-large for a body over API_BODY_LIMIT, and reads one under it', async () => {
    const manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { blob: 'x'.repeat(300 * 1024) } };
    const big = await post(limits.url!, '/v1/simulate/apply', JSON.stringify({ cluster: 'c', manager: 'm', manifest }));
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ code: 'payload-too-large', message: `the request body is larger than ${256 * 1024} bytes (API_BODY_LIMIT)` });
    const fits = { ...manifest, data: { blob: 'x'.repeat(200 * 1024) } };
    expect((await post(limits.url!, '/v1/simulate/apply', JSON.stringify({ cluster: 'c', manager: 'm', manifest: fits }))).status).toBe(200);
  });

  it(`refuses manifests nested deeper than ${MAX_MANIFEST_DEPTH} levels with 400 invalid-manifest, JSON or YAML`, async () => {
    const ok = await post(limits.url!, '/v1/simulate/apply', JSON.stringify({ cluster: 'c', manager: 'm', manifest: nestedManifest(MAX_MANIFEST_DEPTH) }));
    expect(ok).toMatchObject({ status: 200, body: { conflicts: [] } });
    const expected = { code: 'invalid-manifest', parameter: 'manifest', message: `the manifest is nested deeper than ${MAX_MANIFEST_DEPTH} levels (objects and lists)` };
    const deep = await post(limits.url!, '/v1/simulate/apply', JSON.stringify({ cluster: 'c', manager: 'm', manifest: nestedManifest(MAX_MANIFEST_DEPTH + 1) }));
    expect(deep).toMatchObject({ status: 400, body: expected });
    const yaml = await post(limits.url!, '/v1/simulate/apply', JSON.stringify({ cluster: 'c', manager: 'm', manifest: toYaml(nestedManifest(MAX_MANIFEST_DEPTH + 1)) }));
    expect(yaml).toMatchObject({ status: 400, body: expected });
    // 50,000 levels of lists within the body limit: refused as such, never a 500 (stack overflow).
    const abyss = `{"cluster":"c","manager":"m","manifest":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":${'['.repeat(50_000)}${']'.repeat(50_000)}}}`;
    expect(await post(limits.url!, '/v1/simulate/apply', abyss)).toMatchObject({ status: 400, body: expected });
  });

  it('answers 429 rate-limited with Retry-After past API_RATE_LIMIT per caller; probes exempt; other callers unaffected', async () => {
    const url = `${rated.url}/v1/dead-letters`;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await getFrom(url, '127.0.0.1')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const over = await getFrom(url, '127.0.0.1');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ code: 'rate-limited', message: expect.stringMatching(/^more than 5 requests in 2 s from this caller; retry after \d s$/) });
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    // The budget is per caller across routes, not per route.
    expect((await getFrom(`${rated.url}/v1/objects`, '127.0.0.1')).status).toBe(429);
    // Probes and scrapes are never limited.
    for (const probe of ['/healthz', '/readyz', '/metrics']) expect((await getFrom(`${rated.url}${probe}`, '127.0.0.1')).status).not.toBe(429);
    // Another caller has its own budget.
    expect((await getFrom(url, '127.0.0.2')).status).toBe(200);
    // After the window the caller may go on.
    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 200));
    expect((await getFrom(url, '127.0.0.1')).status).toBe(200);
  });
});
