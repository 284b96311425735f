import type { RequestAttributes, UserInfo } from './rbac-authorizer.js';

/**
 * A request's authorization attributes, as the apiserver's RequestInfoFactory derives them: a
 * resource request for `/api/v1/…` and `/apis/{g}/{v}/…` below the group-version, with the verb
 * from the method (GET on a collection is `list`, `?watch=true` is `watch`, DELETE on a collection
 * is `deletecollection`); anything else is a non-resource request whose verb is the lower-cased method.
 */
export function requestAttributes(user: UserInfo, method: string, path: string, query: URLSearchParams): RequestAttributes {
  const segs = path.split('/').filter((s) => s !== '');
  const nonResource = (): RequestAttributes => ({ user, resourceRequest: false, verb: method.toLowerCase(), path });
  let group = '';
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 3) rest = segs.slice(2);
  else if (segs[0] === 'apis' && segs.length >= 4) {
    group = segs[1]!;
    rest = segs.slice(3);
  } else return nonResource();
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    // `/namespaces/{ns}` is the Namespace itself (its namespace is its name); `/namespaces/{ns}/{resource}…` is inside it.
    namespace = rest[1]!;
    if (rest.length > 2 && rest[2] !== 'status' && rest[2] !== 'finalize') rest = rest.slice(2);
  }
  const [resource, name, subresource] = rest as [string, string | undefined, string | undefined];
  const watch = query.get('watch') === 'true' || query.get('watch') === '1';
  let verb: string;
  switch (method) {
    case 'GET':
    case 'HEAD':
      verb = watch ? 'watch' : name === undefined ? 'list' : 'get';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name === undefined ? 'deletecollection' : 'delete';
      break;
    default:
      verb = method.toLowerCase();
  }
  return {
    user,
    resourceRequest: true,
    verb,
    apiGroup: group,
    resource,
    ...(subresource !== undefined ? { subresource } : {}),
    ...(namespace ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}
