import { ApiError, badRequest, invalid, type StatusDetails } from './api-error.js';
import type { Cluster } from './cluster.js';
import { type Obj, isObject } from './json.js';
import {
  authorize,
  BOOTSTRAP_CLUSTER_ROLE_BINDINGS,
  BOOTSTRAP_CLUSTER_ROLES,
  forbiddenMessage,
  serviceAccountGroups,
  serviceAccountUsername,
  SUPERUSER_GROUP,
  type BindingObject,
  type RbacPolicy,
  type RequestAttributes,
  type RoleObject,
  type UserInfo,
} from './rbac-authorizer.js';
import { API_AUDIENCES, DEFAULT_TOKEN_SECONDS, SANDBOX_ADMIN, SANDBOX_ADMIN_TOKEN, type IssuedToken } from './service-account-tokens.js';

/**
 * Kubernetes' authentication and authorization APIs over a `Cluster`: who a bearer token is, the
 * RBAC policy the cluster's objects make, TokenRequest, TokenReview and the access reviews.
 */

const AUTHN = 'authentication.k8s.io';
const AUTHZ = 'authorization.k8s.io';

export const isSuperuser = (u: UserInfo) => u.groups.includes(SUPERUSER_GROUP);

type TokenUser = { user: UserInfo; audiences: readonly string[] | 'any' } | { error: string };

/** Who a bearer token is: the admin token, or a live token the sandbox issued to an existing ServiceAccount. */
function tokenUser(cluster: Cluster, token: string): TokenUser {
  if (token === SANDBOX_ADMIN_TOKEN) return { user: SANDBOX_ADMIN, audiences: 'any' };
  const t = cluster.tokens.lookup(token);
  if (t === 'expired') return { error: 'invalid bearer token, token has expired' };
  if (!t || !serviceAccountAlive(cluster, t)) return { error: 'invalid bearer token' };
  return {
    user: {
      username: serviceAccountUsername(t.namespace, t.serviceAccount),
      uid: t.uid,
      groups: serviceAccountGroups(t.namespace),
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${t.id}`] },
    },
    audiences: t.audiences,
  };
}

function serviceAccountAlive(cluster: Cluster, t: IssuedToken): boolean {
  const sa = findServiceAccount(cluster, t.namespace, t.serviceAccount);
  return sa !== undefined && String((sa['metadata'] as Obj)['uid']) === t.uid;
}

function findServiceAccount(cluster: Cluster, namespace: string, name: string): Obj | undefined {
  try {
    return cluster.get({ resource: cluster.resourceFor('', 'v1', 'serviceaccounts')!, namespace, name });
  } catch {
    return undefined;
  }
}

/**
 * The user of a request. A bearer token must be the admin token or one the sandbox issued (else a
 * 401 `Unauthorized`, as the apiserver answers); a request without a bearer token is the admin, as
 * the sandbox always served it.
 */
export function authenticate(cluster: Cluster, authorization: string | undefined): UserInfo {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m) return SANDBOX_ADMIN;
  const r = tokenUser(cluster, m[1]!);
  if ('error' in r) throw new ApiError('Unauthorized', 'Unauthorized');
  // The apiserver authenticates requests for its own audiences only.
  if (r.audiences !== 'any' && !r.audiences.some((a) => API_AUDIENCES.includes(a))) throw new ApiError('Unauthorized', 'Unauthorized');
  return r.user;
}

const items = (cluster: Cluster, plural: string) => cluster.list(cluster.resourceFor('rbac.authorization.k8s.io', 'v1', plural)!, undefined).items;

/** The stored RBAC objects, with the bootstrap ClusterRoles and bindings every apiserver has. */
export function rbacPolicy(cluster: Cluster): RbacPolicy {
  return {
    roles: items(cluster, 'roles') as RoleObject[],
    clusterRoles: [...BOOTSTRAP_CLUSTER_ROLES, ...(items(cluster, 'clusterroles') as RoleObject[])],
    roleBindings: items(cluster, 'rolebindings') as BindingObject[],
    clusterRoleBindings: [...BOOTSTRAP_CLUSTER_ROLE_BINDINGS, ...(items(cluster, 'clusterrolebindings') as BindingObject[])],
  };
}

/** Throws the apiserver's 403 when the cluster's RBAC policy does not allow the request. */
export function authorizeRequest(cluster: Cluster, attrs: RequestAttributes): void {
  if (isSuperuser(attrs.user)) return;
  const d = authorize(attrs, rbacPolicy(cluster));
  if (d.allowed) return;
  const details: StatusDetails = attrs.resourceRequest
    ? { ...(attrs.name ? { name: attrs.name } : {}), ...(attrs.apiGroup ? { group: attrs.apiGroup } : {}), kind: attrs.resource }
    : {};
  throw new ApiError('Forbidden', forbiddenMessage(attrs, d.reason), details);
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const specOf = (body: unknown): Obj => (isObject(body) && isObject(body['spec']) ? body['spec'] : {});

/** `POST /api/v1/namespaces/{ns}/serviceaccounts/{name}/token`: a TokenRequest answered with a new token. */
export function createToken(cluster: Cluster, namespace: string, name: string, body: unknown): Obj {
  const sa = cluster.get({ resource: cluster.resourceFor('', 'v1', 'serviceaccounts')!, namespace, name });
  const spec = specOf(body);
  const audiences = strings(spec['audiences']);
  const seconds = spec['expirationSeconds'] ?? DEFAULT_TOKEN_SECONDS;
  const bad = (message: string) => invalid('TokenRequest', AUTHN, name, [{ field: 'spec.expirationSeconds', message: `Invalid value: ${String(seconds)}: ${message}`, reason: 'FieldValueInvalid' }]);
  if (typeof seconds !== 'number' || !Number.isInteger(seconds)) throw bad('must be an integer');
  if (seconds < 600) throw bad('may not specify a duration less than 10 minutes');
  if (seconds > 2 ** 32) throw bad('may not specify a duration larger than 2^32 seconds');
  const aud = audiences.length > 0 ? audiences : [...API_AUDIENCES];
  const { token, issued } = cluster.tokens.issue({ namespace, name, uid: String((sa['metadata'] as Obj)['uid']) }, aud, seconds);
  return {
    kind: 'TokenRequest',
    apiVersion: `${AUTHN}/v1`,
    metadata: { name, namespace, creationTimestamp: null },
    spec: { audiences: aud, expirationSeconds: seconds, boundObjectRef: null },
    status: { token, expirationTimestamp: issued.expires.toISOString().replace(/\.\d+Z$/, 'Z') },
  };
}

/** `POST /apis/authentication.k8s.io/v1/tokenreviews`. */
export function reviewToken(cluster: Cluster, body: unknown): Obj {
  const spec = specOf(body);
  const token = typeof spec['token'] === 'string' ? spec['token'] : '';
  if (!token) throw badRequest('token is required for TokenReview in authentication');
  const wanted = strings(spec['audiences']);
  const targets = wanted.length > 0 ? wanted : [...API_AUDIENCES];
  const r = tokenUser(cluster, token);
  let status: Obj;
  if ('error' in r) status = { user: {}, error: `[${r.error}]` };
  else {
    const matched = r.audiences === 'any' ? targets : r.audiences.filter((a) => targets.includes(a));
    status =
      matched.length === 0
        ? { user: {}, error: `[invalid bearer token, token audiences ${JSON.stringify(r.audiences)} is invalid for the target audiences ${JSON.stringify(targets)}]` }
        : { authenticated: true, user: r.user, audiences: matched };
  }
  return { kind: 'TokenReview', apiVersion: `${AUTHN}/v1`, metadata: { creationTimestamp: null }, spec, status };
}

/** `POST /apis/authentication.k8s.io/v1/selfsubjectreviews` (`kubectl auth whoami`): the caller's user. */
export function reviewSelf(user: UserInfo): Obj {
  return { kind: 'SelfSubjectReview', apiVersion: `${AUTHN}/v1`, metadata: { creationTimestamp: null }, status: { userInfo: user } };
}

type Review = 'SubjectAccessReview' | 'SelfSubjectAccessReview' | 'LocalSubjectAccessReview';

/** The attributes an access review's spec asks about (exactly one of resourceAttributes, nonResourceAttributes). */
function reviewAttributes(kind: Review, spec: Obj, user: UserInfo): RequestAttributes {
  const ra = isObject(spec['resourceAttributes']) ? spec['resourceAttributes'] : undefined;
  const nra = isObject(spec['nonResourceAttributes']) ? spec['nonResourceAttributes'] : undefined;
  const bad = (field: string, message: string) => invalid(kind, AUTHZ, '', [{ field, message, reason: 'FieldValueInvalid' }]);
  if (ra && nra) throw bad('spec.nonResourceAttributes', 'Invalid value: "null": cannot be specified in combination with resourceAttributes');
  if (!ra && !nra) throw bad('spec.resourceAttributes', 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified');
  const s = (o: Obj, k: string) => (typeof o[k] === 'string' ? (o[k] as string) : '');
  if (nra) return { user, resourceRequest: false, verb: s(nra, 'verb'), path: s(nra, 'path') };
  const a = ra!;
  return {
    user,
    resourceRequest: true,
    verb: s(a, 'verb'),
    apiGroup: s(a, 'group'),
    resource: s(a, 'resource'),
    ...(s(a, 'subresource') ? { subresource: s(a, 'subresource') } : {}),
    ...(s(a, 'namespace') ? { namespace: s(a, 'namespace') } : {}),
    ...(s(a, 'name') ? { name: s(a, 'name') } : {}),
  };
}

/**
 * `POST /apis/authorization.k8s.io/v1/subjectaccessreviews` (and `namespaces/{ns}/localsubjectaccessreviews`):
 * whether the user and groups of the spec (exactly those; nothing is added) may do what it describes.
 */
export function reviewSubjectAccess(cluster: Cluster, body: unknown, kind: 'SubjectAccessReview' | 'LocalSubjectAccessReview' = 'SubjectAccessReview', namespace?: string): Obj {
  const spec = { ...specOf(body) };
  const user = typeof spec['user'] === 'string' ? spec['user'] : '';
  const groups = strings(spec['groups']);
  if (!user && groups.length === 0) throw invalid(kind, AUTHZ, '', [{ field: 'spec.user', message: 'Invalid value: "": at least one of user or group must be specified', reason: 'FieldValueInvalid' }]);
  if (namespace !== undefined) {
    const ra = isObject(spec['resourceAttributes']) ? { ...spec['resourceAttributes'] } : undefined;
    if (ra && ra['namespace'] && ra['namespace'] !== namespace)
      throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
    if (ra) spec['resourceAttributes'] = { ...ra, namespace };
  }
  const attrs = reviewAttributes(kind, spec, { username: user, ...(typeof spec['uid'] === 'string' ? { uid: spec['uid'] } : {}), groups });
  return reviewAnswer(kind, cluster, attrs, spec, namespace);
}

/** `POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews`: the same question about the caller. */
export function reviewSelfSubjectAccess(cluster: Cluster, user: UserInfo, body: unknown): Obj {
  const spec = specOf(body);
  return reviewAnswer('SelfSubjectAccessReview', cluster, reviewAttributes('SelfSubjectAccessReview', spec, user), spec);
}

function reviewAnswer(kind: Review, cluster: Cluster, attrs: RequestAttributes, spec: Obj, namespace?: string): Obj {
  const d = isSuperuser(attrs.user) ? { allowed: true, reason: '' } : authorize(attrs, rbacPolicy(cluster));
  return {
    kind,
    apiVersion: `${AUTHZ}/v1`,
    metadata: { ...(namespace !== undefined ? { namespace } : {}), creationTimestamp: null },
    spec,
    status: { allowed: d.allowed, ...(d.reason ? { reason: d.reason } : {}) },
  };
}
