/**
 * The RBAC decision, as kube-apiserver's RBAC authorizer makes it (plugin/pkg/auth/authorizer/rbac
 * and pkg/registry/rbac/validation): pure, over plain Role/ClusterRole/RoleBinding/ClusterRoleBinding
 * objects. Members of `system:masters` are allowed everything (the apiserver's privileged-group
 * authorizer, which runs before RBAC).
 */

/** Who is asking: what an authenticator produced. */
export interface UserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** What is asked: the apiserver's `authorizer.Attributes`. */
export type RequestAttributes =
  | {
      readonly user: UserInfo;
      readonly resourceRequest: true;
      readonly verb: string;
      readonly apiGroup: string;
      readonly resource: string;
      readonly subresource?: string;
      /** Empty or absent: cluster scope (or every namespace). */
      readonly namespace?: string;
      readonly name?: string;
    }
  | { readonly user: UserInfo; readonly resourceRequest: false; readonly verb: string; readonly path: string };

export interface PolicyRule {
  readonly verbs?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

export interface Subject {
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
}

interface Meta {
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
}
export interface RoleObject extends Meta {
  readonly rules?: readonly PolicyRule[] | null;
}
export interface BindingObject extends Meta {
  readonly subjects?: readonly Subject[] | null;
  readonly roleRef?: { readonly kind?: string; readonly name?: string };
}

/** Everything the decision reads (what the authorizer's informers hold). */
export interface RbacPolicy {
  readonly roles: readonly RoleObject[];
  readonly clusterRoles: readonly RoleObject[];
  readonly roleBindings: readonly BindingObject[];
  readonly clusterRoleBindings: readonly BindingObject[];
}

export interface Decision {
  readonly allowed: boolean;
  /** `RBAC: allowed by …` when allowed; empty when RBAC has no opinion, as the apiserver answers. */
  readonly reason: string;
}

export const SUPERUSER_GROUP = 'system:masters';
export const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** `system:serviceaccount:<ns>:<name>` (k8s.io/apiserver serviceaccount.MakeUsername). */
export const serviceAccountUsername = (namespace: string, name: string) => `${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`;

/** The groups every ServiceAccount token authenticates with. */
export const serviceAccountGroups = (namespace: string): string[] => ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'];

const has = (list: readonly string[] | undefined, x: string) => (list ?? []).includes(x);

// VerbMatches: `*` or the verb.
const verbMatches = (r: PolicyRule, verb: string) => has(r.verbs, '*') || has(r.verbs, verb);
// APIGroupMatches: `*` or the group ("" is the core group).
const apiGroupMatches = (r: PolicyRule, group: string) => has(r.apiGroups, '*') || has(r.apiGroups, group);

// ResourceMatches: `*`, `resource` or `resource/subresource` exactly, or `*/subresource` for any resource.
function resourceMatches(r: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return (r.resources ?? []).some((x) => x === '*' || x === combined || (subresource !== '' && x === `*/${subresource}`));
}

// ResourceNameMatches: no names allow every name; otherwise the request must name one of them
// (so a list, which names nothing, is not allowed by a rule with resourceNames).
const resourceNameMatches = (r: PolicyRule, name: string) => (r.resourceNames ?? []).length === 0 || has(r.resourceNames, name);

// NonResourceURLMatches: `*`, the path exactly, or a prefix ending in `*`.
const nonResourceURLMatches = (r: PolicyRule, path: string) =>
  (r.nonResourceURLs ?? []).some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))));

/** Whether one rule allows the request (rbac.RuleAllows). */
export function ruleAllows(a: RequestAttributes, r: PolicyRule): boolean {
  if (!verbMatches(r, a.verb)) return false;
  if (!a.resourceRequest) return nonResourceURLMatches(r, a.path);
  return apiGroupMatches(r, a.apiGroup) && resourceMatches(r, a.resource, a.subresource ?? '') && resourceNameMatches(r, a.name ?? '');
}

// appliesToUser: a ServiceAccount subject without a namespace means the binding's namespace.
function appliesToUser(user: UserInfo, s: Subject, bindingNamespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.username === s.name;
    case 'Group':
      return user.groups.includes(s.name ?? '');
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return ns !== '' && user.username === serviceAccountUsername(ns, s.name ?? '');
    }
    default:
      return false;
  }
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} "${s.name ?? ''}/${s.namespace || bindingNamespace}"`;
  return `${s.kind ?? ''} "${s.name ?? ''}"`;
}

const nameOf = (o: Meta) => o.metadata?.name ?? '';
const namespaceOf = (o: Meta) => o.metadata?.namespace ?? '';

/**
 * The decision for one request. ClusterRoleBindings are visited first, then (for a namespaced
 * request) the RoleBindings of that namespace, whose roleRef may be a Role of the same namespace or
 * a ClusterRole; the first rule that allows wins. A binding whose role does not exist grants nothing.
 */
export function authorize(a: RequestAttributes, policy: RbacPolicy): Decision {
  if (a.user.groups.includes(SUPERUSER_GROUP)) return { allowed: true, reason: '' };
  const clusterRole = (name: string) => policy.clusterRoles.find((r) => nameOf(r) === name);
  for (const b of policy.clusterRoleBindings) {
    if (b.roleRef?.kind !== 'ClusterRole') continue;
    const subject = (b.subjects ?? []).find((s) => appliesToUser(a.user, s, ''));
    if (!subject) continue;
    const role = clusterRole(b.roleRef.name ?? '');
    if (role && (role.rules ?? []).some((r) => ruleAllows(a, r)))
      return { allowed: true, reason: `RBAC: allowed by ClusterRoleBinding "${nameOf(b)}" of ClusterRole "${nameOf(role)}" to ${describeSubject(subject, '')}` };
  }
  const ns = a.resourceRequest ? (a.namespace ?? '') : '';
  if (ns === '') return { allowed: false, reason: '' };
  for (const b of policy.roleBindings) {
    if (namespaceOf(b) !== ns) continue;
    const subject = (b.subjects ?? []).find((s) => appliesToUser(a.user, s, ns));
    if (!subject) continue;
    const kind = b.roleRef?.kind;
    const role =
      kind === 'Role' ? policy.roles.find((r) => namespaceOf(r) === ns && nameOf(r) === b.roleRef?.name) : kind === 'ClusterRole' ? clusterRole(b.roleRef?.name ?? '') : undefined;
    if (role && (role.rules ?? []).some((r) => ruleAllows(a, r)))
      return { allowed: true, reason: `RBAC: allowed by RoleBinding "${nameOf(b)}/${ns}" of ${kind} "${nameOf(role)}" to ${describeSubject(subject, ns)}` };
  }
  return { allowed: false, reason: '' };
}

/**
 * The apiserver's 403 message for a denied request (endpoints/handlers/responsewriters.forbiddenMessage,
 * wrapped by NewForbidden): `configmaps is forbidden: User "…" cannot list resource "configmaps" in
 * API group "" in the namespace "team-b"`.
 */
export function forbiddenMessage(a: RequestAttributes, reason = ''): string {
  const user = a.user.username;
  let why: string;
  let what: string;
  if (!a.resourceRequest) {
    why = `User "${user}" cannot ${a.verb} path "${a.path}"`;
    what = 'forbidden';
  } else {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
    why = `User "${user}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}" ${scope}`;
    const qualified = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
    what = a.name ? `${qualified} "${a.name}" is forbidden` : `${qualified} is forbidden`;
  }
  return `${what}: ${why}${reason ? `: ${reason}` : ''}`;
}

/**
 * The bootstrap policy every apiserver creates (plugin/pkg/auth/authorizer/rbac/bootstrappolicy),
 * the part that lets an authenticated client use discovery and ask about itself. The sandbox does
 * not store these objects; it evaluates them as if they were stored.
 */
export const BOOTSTRAP_CLUSTER_ROLES: readonly RoleObject[] = [
  {
    metadata: { name: 'system:discovery' },
    rules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'] }],
  },
  {
    metadata: { name: 'system:basic-user' },
    rules: [{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] }, { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] }],
  },
  { metadata: { name: 'system:public-info-viewer' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }] },
];

export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: readonly BindingObject[] = [
  { metadata: { name: 'system:discovery' }, roleRef: { kind: 'ClusterRole', name: 'system:discovery' }, subjects: [{ kind: 'Group', name: 'system:authenticated' }] },
  { metadata: { name: 'system:basic-user' }, roleRef: { kind: 'ClusterRole', name: 'system:basic-user' }, subjects: [{ kind: 'Group', name: 'system:authenticated' }] },
  {
    metadata: { name: 'system:public-info-viewer' },
    roleRef: { kind: 'ClusterRole', name: 'system:public-info-viewer' },
    subjects: [
      { kind: 'Group', name: 'system:authenticated' },
      { kind: 'Group', name: 'system:unauthenticated' },
    ],
  },
];
