import {
  authorize,
  BOOTSTRAP_CLUSTER_ROLE_BINDINGS,
  BOOTSTRAP_CLUSTER_ROLES,
  forbiddenMessage,
  ruleAllows,
  serviceAccountGroups,
  serviceAccountUsername,
  type PolicyRule,
  type RbacPolicy,
  type RequestAttributes,
  type UserInfo,
} from './rbac-authorizer.js';
import { requestAttributes } from './request-info.js';

const viewer: UserInfo = { username: serviceAccountUsername('team-a', 'viewer'), groups: serviceAccountGroups('team-a') };
const alice: UserInfo = { username: 'alice', groups: ['devs', 'system:authenticated'] };
const admin: UserInfo = { username: 'root', groups: ['system:masters'] };

const res = (user: UserInfo, verb: string, resource: string, more: Partial<{ apiGroup: string; namespace: string; name: string; subresource: string }> = {}): RequestAttributes => ({
  user,
  resourceRequest: true,
  verb,
  apiGroup: more.apiGroup ?? '',
  resource,
  ...(more.subresource ? { subresource: more.subresource } : {}),
  ...(more.namespace ? { namespace: more.namespace } : {}),
  ...(more.name ? { name: more.name } : {}),
});
const path = (user: UserInfo, verb: string, p: string): RequestAttributes => ({ user, resourceRequest: false, verb, path: p });

describe('ruleAllows (one PolicyRule)', () => {
  const cases: [string, PolicyRule, RequestAttributes, boolean][] = [
    ['verb listed', { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }, res(alice, 'list', 'configmaps'), true],
    ['verb not listed', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }, res(alice, 'delete', 'configmaps'), false],
    ['verb *', { verbs: ['*'], apiGroups: [''], resources: ['configmaps'] }, res(alice, 'deletecollection', 'configmaps'), true],
    ['core group is ""', { verbs: ['get'], apiGroups: [''], resources: ['deployments'] }, res(alice, 'get', 'deployments', { apiGroup: 'apps' }), false],
    ['apiGroups *', { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, res(alice, 'get', 'deployments', { apiGroup: 'apps' }), true],
    ['no apiGroups matches nothing', { verbs: ['get'], resources: ['configmaps'] }, res(alice, 'get', 'configmaps'), false],
    ['resources *', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res(alice, 'get', 'pods', { subresource: 'log' }), true],
    ['resource does not cover its subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res(alice, 'get', 'pods', { subresource: 'log' }), false],
    ['resource/subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res(alice, 'get', 'pods', { subresource: 'log' }), true],
    ['resource/subresource does not cover the resource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res(alice, 'get', 'pods'), false],
    ['*/subresource', { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] }, res(alice, 'update', 'deployments', { apiGroup: 'apps', subresource: 'scale' }), true],
    ['*/subresource needs that subresource', { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] }, res(alice, 'update', 'deployments', { apiGroup: 'apps', subresource: 'status' }), false],
    ['resource/* is no wildcard', { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }, res(alice, 'get', 'pods', { subresource: 'log' }), false],
    ['resourceNames: named', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res(alice, 'get', 'configmaps', { name: 'a' }), true],
    ['resourceNames: other name', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res(alice, 'get', 'configmaps', { name: 'b' }), false],
    ['resourceNames: a list names nothing', { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res(alice, 'list', 'configmaps'), false],
    ['nonResourceURLs exact', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path(alice, 'get', '/healthz'), true],
    ['nonResourceURLs prefix*', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, path(alice, 'get', '/apis/apps/v1'), true],
    ['nonResourceURLs prefix* is a string prefix', { verbs: ['get'], nonResourceURLs: ['/api*'] }, path(alice, 'get', '/apis'), true],
    ['nonResourceURLs other path', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path(alice, 'get', '/metrics'), false],
    ['nonResourceURLs *', { verbs: ['get'], nonResourceURLs: ['*'] }, path(alice, 'get', '/metrics'), true],
    ['a resource rule does not allow a path', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, path(alice, 'get', '/metrics'), false],
    ['a path rule does not allow a resource', { verbs: ['*'], nonResourceURLs: ['*'] }, res(alice, 'get', 'pods'), false],
  ];
  it.each(cases)('%s', (_name, rule, attrs, allowed) => expect(ruleAllows(attrs, rule)).toBe(allowed));
});

const policy: RbacPolicy = {
  roles: [
    { metadata: { name: 'cm-reader', namespace: 'team-a' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }] },
    { metadata: { name: 'cm-reader', namespace: 'team-c' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }] },
  ],
  clusterRoles: [
    ...BOOTSTRAP_CLUSTER_ROLES,
    { metadata: { name: 'pod-reader' }, rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }] },
    { metadata: { name: 'metrics' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] },
    { metadata: { name: 'no-rules' } },
  ],
  roleBindings: [
    // A ServiceAccount subject without a namespace is the binding's namespace.
    { metadata: { name: 'viewer-cm', namespace: 'team-a' }, roleRef: { kind: 'Role', name: 'cm-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'viewer' }] },
    // A RoleBinding to a ClusterRole grants it in its namespace only.
    { metadata: { name: 'devs-pods', namespace: 'team-b' }, roleRef: { kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'Group', name: 'devs' }] },
    // A RoleBinding grants nothing outside its namespace, even naming a ServiceAccount of another one.
    { metadata: { name: 'cross', namespace: 'team-c' }, roleRef: { kind: 'Role', name: 'cm-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'viewer', namespace: 'team-a' }] },
    // A missing Role grants nothing.
    { metadata: { name: 'dangling', namespace: 'team-a' }, roleRef: { kind: 'Role', name: 'gone' }, subjects: [{ kind: 'User', name: 'alice' }] },
  ],
  clusterRoleBindings: [
    ...BOOTSTRAP_CLUSTER_ROLE_BINDINGS,
    { metadata: { name: 'alice-metrics' }, roleRef: { kind: 'ClusterRole', name: 'metrics' }, subjects: [{ kind: 'User', name: 'alice' }] },
    // A ServiceAccount subject of a ClusterRoleBinding needs its namespace.
    { metadata: { name: 'sa-no-ns' }, roleRef: { kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'viewer' }] },
  ],
};

describe('authorize (bindings, subjects, scope)', () => {
  const cases: [string, RequestAttributes, boolean, string][] = [
    ['Role via RoleBinding to a ServiceAccount', res(viewer, 'list', 'configmaps', { namespace: 'team-a' }), true, 'RBAC: allowed by RoleBinding "viewer-cm/team-a" of Role "cm-reader" to ServiceAccount "viewer/team-a"'],
    ['other namespace', res(viewer, 'list', 'configmaps', { namespace: 'team-b' }), false, ''],
    ['verb the Role lacks', res(viewer, 'delete', 'configmaps', { namespace: 'team-a', name: 'x' }), false, ''],
    ['every namespace (no namespace) is not one namespace', res(viewer, 'list', 'configmaps'), false, ''],
    ['cross-namespace ServiceAccount subject', res(viewer, 'get', 'configmaps', { namespace: 'team-c', name: 'x' }), true, 'RBAC: allowed by RoleBinding "cross/team-c" of Role "cm-reader" to ServiceAccount "viewer/team-a"'],
    ['ClusterRole via RoleBinding to a Group', res(alice, 'watch', 'pods', { namespace: 'team-b' }), true, 'RBAC: allowed by RoleBinding "devs-pods/team-b" of ClusterRole "pod-reader" to Group "devs"'],
    ['ClusterRole via RoleBinding stays in its namespace', res(alice, 'watch', 'pods', { namespace: 'team-a' }), false, ''],
    ['missing Role', res(alice, 'get', 'configmaps', { namespace: 'team-a', name: 'x' }), false, ''],
    ['ClusterRoleBinding to a User, non-resource URL', path(alice, 'get', '/metrics'), true, 'RBAC: allowed by ClusterRoleBinding "alice-metrics" of ClusterRole "metrics" to User "alice"'],
    ['ClusterRoleBinding ServiceAccount subject without namespace matches nobody', res(viewer, 'list', 'pods', { namespace: 'team-a' }), false, ''],
    ['bootstrap: discovery for the authenticated', path(viewer, 'get', '/apis/apps/v1'), true, 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"'],
    ['bootstrap: self access reviews', res(viewer, 'create', 'selfsubjectaccessreviews', { apiGroup: 'authorization.k8s.io' }), true, 'RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"'],
    ['bootstrap: not other reviews', res(viewer, 'create', 'subjectaccessreviews', { apiGroup: 'authorization.k8s.io' }), false, ''],
    ['bootstrap: public info for the unauthenticated', path({ username: 'system:anonymous', groups: ['system:unauthenticated'] }, 'get', '/version'), true, 'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"'],
    ['system:masters', res(admin, 'delete', 'nodes', { name: 'n' }), true, ''],
    ['a user name is not a group', res({ username: 'devs', groups: [] }, 'list', 'pods', { namespace: 'team-b' }), false, ''],
  ];
  it.each(cases)('%s', (_name, attrs, allowed, reason) => expect(authorize(attrs, policy)).toEqual({ allowed, reason }));
});

describe('forbiddenMessage (the apiserver words)', () => {
  it.each([
    [res(viewer, 'list', 'configmaps', { namespace: 'team-b' }), 'configmaps is forbidden: User "system:serviceaccount:team-a:viewer" cannot list resource "configmaps" in API group "" in the namespace "team-b"'],
    [res(viewer, 'get', 'deployments', { apiGroup: 'apps', namespace: 'x', name: 'web', subresource: 'scale' }), 'deployments.apps "web" is forbidden: User "system:serviceaccount:team-a:viewer" cannot get resource "deployments/scale" in API group "apps" in the namespace "x"'],
    [res(viewer, 'list', 'namespaces'), 'namespaces is forbidden: User "system:serviceaccount:team-a:viewer" cannot list resource "namespaces" in API group "" at the cluster scope'],
    [path(viewer, 'get', '/metrics'), 'forbidden: User "system:serviceaccount:team-a:viewer" cannot get path "/metrics"'],
  ])('%#', (attrs, message) => expect(forbiddenMessage(attrs)).toBe(message));
});

describe('requestAttributes (RequestInfoFactory)', () => {
  const q = (s = '') => new URLSearchParams(s);
  it.each([
    ['GET', '/api/v1/namespaces/team-a/configmaps', '', { verb: 'list', resource: 'configmaps', namespace: 'team-a', apiGroup: '' }],
    ['GET', '/api/v1/namespaces/team-a/configmaps', 'watch=true', { verb: 'watch', resource: 'configmaps', namespace: 'team-a' }],
    ['GET', '/api/v1/namespaces/team-a/configmaps/c', '', { verb: 'get', name: 'c' }],
    ['GET', '/api/v1/configmaps', '', { verb: 'list', resource: 'configmaps' }],
    ['DELETE', '/apis/apps/v1/namespaces/x/deployments', '', { verb: 'deletecollection', apiGroup: 'apps' }],
    ['PATCH', '/apis/apps/v1/namespaces/x/deployments/web/scale', '', { verb: 'patch', name: 'web', subresource: 'scale' }],
    ['POST', '/api/v1/namespaces/team-a/serviceaccounts/viewer/token', '', { verb: 'create', resource: 'serviceaccounts', subresource: 'token' }],
    ['GET', '/api/v1/namespaces/team-a', '', { verb: 'get', resource: 'namespaces', name: 'team-a', namespace: 'team-a' }],
    ['PUT', '/api/v1/namespaces/team-a/finalize', '', { verb: 'update', resource: 'namespaces', name: 'team-a', subresource: 'finalize' }],
  ])('%s %s %s', (method, p, query, want) => expect(requestAttributes(alice, method, p, q(query))).toMatchObject({ resourceRequest: true, ...want }));

  it.each([
    ['GET', '/api'],
    ['GET', '/api/v1'],
    ['GET', '/apis/apps/v1'],
    ['GET', '/openapi/v3'],
    ['POST', '/sandbox/compact'],
  ])('%s %s is a non-resource request', (method, p) => expect(requestAttributes(alice, method, p, q())).toEqual({ user: alice, resourceRequest: false, verb: method.toLowerCase(), path: p }));
});
