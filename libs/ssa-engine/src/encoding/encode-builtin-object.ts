import { SsaEngineError } from '../errors.js';
import { BUILTIN_JSON_ENCODING, builtinGoTypeName } from './builtin-json-encoding.js';
import { encodeGoJson } from './encode-go-json.js';

/** Which Go type to encode as: a type name, or the apiVersion/kind of a built-in kind. */
export type BuiltinEncodingTarget = string | { readonly apiVersion: string; readonly kind: string };

/**
 * The apiserver's JSON encoding of a built-in object (k8s.io/api v0.36.3): the object decoded
 * into its Go type and encoded again. The result is a new plain object; `JSON.stringify` of it is
 * the apiserver's JSON text (modulo Go's HTML escaping): fields in Go struct order (`kind` before
 * `apiVersion`), unknown fields dropped, `omitempty`/`omitzero` applied, map keys sorted,
 * quantities canonical, times in UTC.
 *
 * @param obj the object as JSON-parsed data
 * @param target a Go type name (`io.k8s.api.apps.v1.Deployment`) or `{apiVersion, kind}`;
 *   defaults to the object's own `apiVersion` and `kind`
 * @throws SsaEngineError `unknown-kind` (not a built-in kind), `invalid-object` (does not decode)
 */
export function encodeBuiltinObject(obj: unknown, target?: BuiltinEncodingTarget): Record<string, unknown> {
  const typeName = resolveTarget(obj, target);
  return encodeGoJson(BUILTIN_JSON_ENCODING, typeName, obj);
}

function resolveTarget(obj: unknown, target: BuiltinEncodingTarget | undefined): string {
  if (typeof target === 'string') return target;
  let gvk = target;
  if (!gvk) {
    const o = typeof obj === 'object' && obj !== null ? (obj as Record<string, unknown>) : {};
    const apiVersion = o['apiVersion'];
    const kind = o['kind'];
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
      throw new SsaEngineError('unknown-kind', 'the object has no apiVersion and kind, and no Go type was given');
    }
    gvk = { apiVersion, kind };
  }
  const name = builtinGoTypeName(gvk.apiVersion, gvk.kind);
  if (!name) throw new SsaEngineError('unknown-kind', `${gvk.apiVersion} ${gvk.kind} is not a built-in kind`);
  return name;
}
