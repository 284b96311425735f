import { BUILTIN_SCHEMA, builtinTypeName } from '../schema/builtin-schema.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import type { Value } from '../value/value.js';
import { convertHpa, HPA_VERSIONS } from './hpa-v1-v2.js';

/**
 * The conversion port of a write (04 §0, §1, §3.4): how the apiserver re-expresses the object of
 * one kind at another API version of it. Managers recorded at another version are compared,
 * reconciled and pruned in their own version through it.
 */
export interface VersionConverter {
  /** The kind's schema type at `apiVersion`, or `undefined` when that version is unknown. */
  typeAt(apiVersion: string): ResolvedType | undefined;
  /**
   * `object` (at `from`) re-expressed at `to`, as the Go types would encode it; `undefined` when
   * this converter cannot convert between the two versions. Same version: the object itself.
   */
  convert(object: Value, from: string, to: string): Value | undefined;
}

/** One convertible kind: the `group/version`s Kubernetes serves it at and how to convert between them. */
interface ConvertibleKind {
  readonly kind: string;
  readonly apiVersions: readonly string[];
  readonly convert: (object: Value, from: string, to: string) => Value | undefined;
}

/** Kinds the engine converts like the apiserver does (the rest keep "cannot convert", 04 §3.6). */
const REGISTRY: readonly ConvertibleKind[] = [{ kind: 'HorizontalPodAutoscaler', apiVersions: HPA_VERSIONS, convert: convertHpa }];

function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/**
 * The built-in converter for the kind of `apiVersion`/`kind`, or `undefined` when the engine does
 * not convert that kind. It converts between the registered versions of the kind's group (e.g.
 * `autoscaling/v1` ↔ `autoscaling/v2` HorizontalPodAutoscaler) and types them with the bundled schema.
 */
export function builtinConverterFor(apiVersion: string, kind: string): VersionConverter | undefined {
  const entry = REGISTRY.find((r) => r.kind === kind && r.apiVersions.includes(apiVersion));
  if (!entry) return undefined;
  const group = groupOf(apiVersion);
  const known = (v: string) => entry.apiVersions.includes(v) && groupOf(v) === group;
  return {
    typeAt(v) {
      if (!known(v)) return undefined;
      const name = builtinTypeName(v, kind);
      return name ? BUILTIN_SCHEMA.type(name) : undefined;
    },
    convert(object, from, to) {
      if (from === to) return object;
      if (!known(from) || !known(to)) return undefined;
      return entry.convert(object, from, to);
    },
  };
}

/** Whether the engine converts `kind` between `from` and `to` (both served versions of one group). */
export function canConvert(kind: string, from: string, to: string): boolean {
  if (from === to) return true;
  const c = builtinConverterFor(from, kind);
  return c !== undefined && c.typeAt(to) !== undefined;
}
