/**
 * The structured-merge-diff type model (spec 02 §1). A schema is a set of named types; a type is an
 * atom with up to three facets (scalar, list, map). This is the same shape as the SMD `types:`
 * YAML document, so bundled schemas are that document converted to JSON.
 */

export type ScalarType = 'numeric' | 'string' | 'boolean' | 'untyped';
export type ElementRelationship = 'atomic' | 'separable' | 'associative';

/** A reference to a named type or an inline atom, with an optional element-relationship override. */
export interface TypeRef {
  readonly namedType?: string;
  readonly scalar?: ScalarType;
  readonly list?: ListType;
  readonly map?: MapType;
  readonly elementRelationship?: ElementRelationship;
}

export interface StructField {
  readonly name: string;
  readonly type: TypeRef;
  readonly default?: unknown;
}

export interface ListType {
  readonly elementType: TypeRef;
  /** `atomic` or `associative`; anything else makes a non-empty list unusable (02 §1.1). */
  readonly elementRelationship?: ElementRelationship;
  readonly keys?: readonly string[];
}

export interface MapType {
  readonly fields?: readonly StructField[];
  /** Type of keys that are not declared fields; absent means no other keys are allowed. */
  readonly elementType?: TypeRef;
  /** `separable` (default; also written `granular` or empty) or `atomic`. */
  readonly elementRelationship?: ElementRelationship;
  /** Carried for completeness; no algorithm uses unions (02 §1). */
  readonly unions?: readonly unknown[];
}

export interface Atom {
  readonly scalar?: ScalarType;
  readonly list?: ListType;
  readonly map?: MapType;
}

export interface TypeDef extends Atom {
  readonly name: string;
}

/** The serialisable schema document (SMD `types:` format). */
export interface SchemaDocument {
  readonly types: readonly TypeDef[];
}

export const UNTYPED_ATOMIC = '__untyped_atomic_';
export const UNTYPED_DEDUCED = '__untyped_deduced_';

/** The two built-in types every schema has (02 §1.4). */
export const BUILTIN_TYPE_DEFS: readonly TypeDef[] = [
  {
    name: UNTYPED_ATOMIC,
    scalar: 'untyped',
    list: { elementType: { namedType: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
    map: { elementType: { namedType: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
  },
  {
    name: UNTYPED_DEDUCED,
    scalar: 'untyped',
    list: { elementType: { namedType: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
    map: { elementType: { namedType: UNTYPED_DEDUCED }, elementRelationship: 'separable' },
  },
];
