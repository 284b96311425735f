import fc from 'fast-check';
import { startSandbox, type Sandbox } from './index.js';

/** Bad input never crashes the server or corrupts the store: random requests, then invariants. */
describe('sandbox under random requests', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0 });
  });
  afterAll(async () => {
    await sb.close();
  });

  const seg = fc.constantFrom('api', 'apis', 'v1', 'apps', 'namespaces', 'default', 'pods', 'configmaps', 'deployments', 'web', 'status', 'scale', 'x', '%2F', '%E0%A4%A', 'openapi', 'v3');
  const query = fc.constantFrom('', '?limit=1', '?continue=abc', '?labelSelector=a%3D', '?resourceVersion=abc', '?fieldManager=m&force=true', '?dryRun=All&fieldManager=m');
  const contentType = fc.constantFrom(
    'application/json',
    'application/yaml',
    'application/apply-patch+yaml',
    'application/merge-patch+json',
    'application/json-patch+json',
    'application/strategic-merge-patch+json',
    'application/vnd.kubernetes.protobuf',
    'text/plain',
  );
  const body = fc.oneof(
    fc.constantFrom('', '{', '[]', 'null', 'k8s\u0000\u0001\u0002', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web"},"data":{"k":"v"}}'),
    fc.constantFrom('{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":"x"}}', '[{"op":"remove","path":"/metadata"}]'),
    fc.json(),
  );

  it('answers every request with a Status or an object, never a crash', async () => {
    const problems: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(seg, { maxLength: 7 }), query, fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), contentType, body, async (segs, q, method, ct, b) => {
        const res = await fetch(`${sb.url}/${segs.join('/')}${q}`, { method, headers: { 'Content-Type': ct }, ...(method === 'GET' ? {} : { body: b }) });
        const text = await res.text();
        // The apiserver answers 500 for an apply config its schema rejects; nothing else may be a 5xx.
        if (res.status >= 500 && !text.includes('failed to create typed patch object')) problems.push(`${method} /${segs.join('/')}${q} ${ct} ${b} → ${text}`);
        expect(() => JSON.parse(text)).not.toThrow();
      }),
      { numRuns: 400, seed: 1 },
    );
    expect(problems).toEqual([]);
    // Every stored object is still readable, listed, and has a resourceVersion no later than the store's.
    for (const rt of sb.cluster.resources()) {
      for (const o of sb.cluster.list(rt, undefined).items) {
        const md = o['metadata'] as Record<string, string>;
        expect(Number(md['resourceVersion'])).toBeLessThanOrEqual(sb.cluster.store.resourceVersion);
        expect(md['uid']).toMatch(/^[0-9a-f-]{36}$/);
      }
    }
  });
});
