/**
 * The Go JSON encoding table: for each Go type, its JSON fields in the order Go's encoder writes
 * them (embedded structs already flattened), with the Go kind, the element type and the
 * `omitempty` / `omitzero` flags. Types with their own `MarshalJSON` are marked `custom`.
 */

/** Go kinds as the table names them. */
export type GoKind =
  | 'struct'
  | 'pointer'
  | 'slice'
  | 'map'
  | 'string'
  | 'int'
  | 'bool'
  | 'float'
  | 'bytes'
  | 'interface'
  | 'custom';

export interface GoJsonField {
  /** The JSON key. */
  readonly json: string;
  readonly kind: GoKind;
  /**
   * `struct`/`custom`: the type name. `pointer`/`slice`/`map`: `<kind>:<type name>` of the
   * pointee/element, the name empty for basic kinds (`string:`).
   */
  readonly elem?: string;
  readonly omitempty?: boolean;
  readonly omitzero?: boolean;
}

/** A struct type (its fields in write order) or a type with its own JSON encoder. */
export type GoJsonType = { readonly fields: readonly GoJsonField[] } | { readonly custom: string };

/** The document `k8s-<version>-json-encoding.json`. */
export interface GoJsonEncodingDocument {
  readonly types: Readonly<Record<string, GoJsonType>>;
}

/** A Go type as the encoder walks it. `elem` is only known one level deep (as in the table). */
export interface GoTypeRef {
  readonly kind: GoKind;
  /** Struct or custom type name. */
  readonly name?: string;
  readonly elem?: GoTypeRef;
}

/** The Go types with their own JSON encoding that the encoder implements. */
export const GO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
export const GO_MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';
export const GO_QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const GO_INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const GO_RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';
export const GO_FIELDS_V1 = 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1';

/** Parses an `elem` string `<kind>:<name>` (pointer, slice and map elements). */
export function parseElem(elem: string): GoTypeRef {
  const colon = elem.indexOf(':');
  const kind = (colon < 0 ? elem : elem.slice(0, colon)) as GoKind;
  const name = colon < 0 ? '' : elem.slice(colon + 1);
  return name ? { kind, name } : { kind };
}

/** The type of a field, with its element where the kind has one. */
export function fieldTypeRef(f: GoJsonField): GoTypeRef {
  switch (f.kind) {
    case 'struct':
    case 'custom':
      return f.elem ? { kind: f.kind, name: f.elem } : { kind: f.kind };
    case 'pointer':
    case 'slice':
    case 'map':
      return f.elem ? { kind: f.kind, elem: parseElem(f.elem) } : { kind: f.kind };
    default:
      return { kind: f.kind };
  }
}
