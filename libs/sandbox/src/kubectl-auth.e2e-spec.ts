import { request } from 'node:https';
import { itWithKubectl, KubectlSandbox } from '../../testing/src/kubectl-sandbox.js';

// kubectl sends a bearer token over HTTPS only, so these sessions run the sandbox with TLS.
const auth = itWithKubectl(24, 'create token (1.24) and auth can-i', 90_000);

const SETUP = `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: cm-reader, namespace: team-a }
rules:
- { apiGroups: [""], resources: [configmaps], verbs: [get, list] }
`;

/** A request to the sandbox over HTTPS, trusting its certificate. */
function call(k: KubectlSandbox, method: string, path: string, body?: unknown, token = 'ssa-sandbox'): Promise<{ status: number; json: any }> {
  const text = body === undefined ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${k.sandbox.url}${path}`,
      { method, ca: k.sandbox.caCertificate, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } },
      (res) => {
        let out = '';
        res.on('data', (d: Buffer) => (out += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: out ? JSON.parse(out) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

describe('ServiceAccount tokens and RBAC with the real kubectl', () => {
  let k: KubectlSandbox;
  beforeAll(async () => {
    k = await KubectlSandbox.start({ tls: true });
  });
  afterAll(async () => {
    await k.close();
  });

  auth('create token, get with it, forbidden elsewhere, auth can-i, reviews, and a deleted RoleBinding denies', async () => {
    await k.ok(['create', 'namespace', 'team-a']);
    await k.ok(['create', 'namespace', 'team-b']);
    await k.ok(['create', 'serviceaccount', 'viewer', '-n', 'team-a']);
    await k.ok(['apply', '--server-side', '-f', '-'], { input: SETUP });
    await k.ok(['create', 'rolebinding', 'viewer-cm', '--role=cm-reader', '--serviceaccount=team-a:viewer', '-n', 'team-a']);
    await k.ok(['create', 'configmap', 'settings', '-n', 'team-a', '--from-literal=a=b']);
    await k.ok(['create', 'configmap', 'settings', '-n', 'team-b', '--from-literal=a=b']);

    const token = (await k.ok(['create', 'token', 'viewer', '-n', 'team-a'])).trim();
    expect(token).toMatch(/^sbx-[A-Za-z0-9_-]{43}$/);
    const as = ['--token', token];

    expect(await k.ok([...as, 'get', 'cm', '-n', 'team-a', '-o', 'name'])).toBe('configmap/settings\n');
    const other = await k.kubectl([...as, 'get', 'cm', '-n', 'team-b']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain(
      'Error from server (Forbidden): configmaps is forbidden: User "system:serviceaccount:team-a:viewer" cannot list resource "configmaps" in API group "" in the namespace "team-b"',
    );
    const write = await k.kubectl([...as, 'delete', 'cm', 'settings', '-n', 'team-a']);
    expect(write.stderr).toContain('configmaps "settings" is forbidden: User "system:serviceaccount:team-a:viewer" cannot delete resource "configmaps" in API group "" in the namespace "team-a"');

    expect(await k.kubectl([...as, 'auth', 'can-i', 'get', 'configmaps', '-n', 'team-a'])).toMatchObject({ code: 0, stdout: 'yes\n' });
    expect(await k.kubectl([...as, 'auth', 'can-i', 'get', 'configmaps', '-n', 'team-b'])).toMatchObject({ code: 1, stdout: 'no\n' });
    expect(await k.kubectl([...as, 'auth', 'can-i', 'delete', 'configmaps', '-n', 'team-a'])).toMatchObject({ code: 1, stdout: 'no\n' });
    expect((await k.kubectl(['--token', 'not-issued', 'get', 'cm'])).stderr).toContain('error: You must be logged in to the server (Unauthorized)');

    // TokenReview over HTTP, as a webhook authenticator would ask.
    const review = await call(k, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
    expect(review.status).toBe(201);
    const sa = await k.getJson('serviceaccount', 'viewer', '-n', 'team-a');
    expect(review.json.status).toEqual({
      authenticated: true,
      user: {
        username: 'system:serviceaccount:team-a:viewer',
        uid: sa.metadata.uid,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'],
        extra: { 'authentication.kubernetes.io/credential-id': [expect.stringMatching(/^JTI=/)] },
      },
      audiences: ['https://kubernetes.default.svc.cluster.local'],
    });
    const unknown = await call(k, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: 'nope' } });
    expect(unknown.json.status).toEqual({ user: {}, error: '[invalid bearer token]' });
    expect(unknown.json.status.authenticated ?? false).toBe(false);
    const wrongAudience = await call(k, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token, audiences: ['vault'] } });
    expect(wrongAudience.json.status.authenticated ?? false).toBe(false);

    // SubjectAccessReview over HTTP, for the ServiceAccount as the apiserver would authenticate it.
    const sar = (namespace: string) =>
      call(k, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { user: 'system:serviceaccount:team-a:viewer', groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'], resourceAttributes: { namespace, verb: 'list', resource: 'configmaps' } },
      });
    expect((await sar('team-a')).json.status).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "viewer-cm/team-a" of Role "cm-reader" to ServiceAccount "viewer/team-a"' });
    expect((await sar('team-b')).json.status).toEqual({ allowed: false });
    // The ServiceAccount itself may not ask about others (no system:auth-delegator binding).
    const asViewer = await call(k, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { spec: { user: 'x', resourceAttributes: { verb: 'get', resource: 'pods' } } }, token);
    expect(asViewer.status).toBe(403);
    expect(asViewer.json).toMatchObject({ kind: 'Status', reason: 'Forbidden', details: { group: 'authorization.k8s.io', kind: 'subjectaccessreviews' }, code: 403 });

    await k.ok(['delete', 'rolebinding', 'viewer-cm', '-n', 'team-a']);
    expect((await k.kubectl([...as, 'get', 'cm', '-n', 'team-a'])).stderr).toContain('cannot list resource "configmaps" in API group "" in the namespace "team-a"');
    expect(await k.kubectl([...as, 'auth', 'can-i', 'get', 'configmaps', '-n', 'team-a'])).toMatchObject({ code: 1, stdout: 'no\n' });
    expect((await sar('team-a')).json.status).toEqual({ allowed: false });

    // A deleted ServiceAccount's tokens stop working (as bound tokens do).
    await k.ok(['delete', 'serviceaccount', 'viewer', '-n', 'team-a']);
    expect((await k.kubectl([...as, 'get', 'cm', '-n', 'team-a'])).stderr).toContain('(Unauthorized)');
  });

  auth('a TokenRequest: expirationSeconds, audiences, and its validation', async () => {
    await k.ok(['create', 'serviceaccount', 'robot', '-n', 'default']);
    const before = Date.now();
    const r = await call(k, 'POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['vault'], expirationSeconds: 600 } });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: { name: 'robot', namespace: 'default' }, spec: { audiences: ['vault'], expirationSeconds: 600 } });
    const expires = Date.parse(r.json.status.expirationTimestamp);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 599_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 601_000);
    // A token for another audience is no credential for this apiserver.
    expect((await call(k, 'GET', '/api/v1/namespaces/default/configmaps', undefined, r.json.status.token)).status).toBe(401);
    const review = await call(k, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: r.json.status.token, audiences: ['vault', 'other'] } });
    expect(review.json.status).toMatchObject({ authenticated: true, audiences: ['vault'] });

    const short = await call(k, 'POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { spec: { expirationSeconds: 60 } });
    expect(short.status).toBe(422);
    expect(short.json.message).toBe('TokenRequest.authentication.k8s.io "robot" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
    expect((await call(k, 'POST', '/api/v1/namespaces/default/serviceaccounts/nobody/token', { spec: {} })).status).toBe(404);
    const defaults = await call(k, 'POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { spec: {} });
    expect(defaults.json.spec).toEqual({ audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600, boundObjectRef: null });
  });
});
