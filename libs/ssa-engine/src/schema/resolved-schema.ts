import { SsaEngineError } from '../errors.js';
import {
  BUILTIN_TYPE_DEFS,
  UNTYPED_DEDUCED,
  type Atom,
  type ElementRelationship,
  type ScalarType,
  type SchemaDocument,
  type TypeDef,
  type TypeRef,
} from './schema.js';

/** A struct field of a resolved map type. */
export interface ResolvedField {
  readonly name: string;
  readonly type: ResolvedType;
  readonly default: unknown;
  readonly hasDefault: boolean;
}

export interface ResolvedList {
  readonly elementType: ResolvedType;
  readonly atomic: boolean;
  /** Associative list (list-map when `keys` is non-empty, set otherwise). */
  readonly associative: boolean;
  readonly keys: readonly string[];
}

export interface ResolvedMap {
  /** Declared struct fields by name (a null-prototype record: safe for untrusted keys). */
  readonly fields: ReadonlyMap<string, ResolvedField>;
  /** Type of undeclared keys; undefined means such keys are invalid. */
  readonly elementType: ResolvedType | undefined;
  readonly atomic: boolean;
}

/**
 * A type with its references resolved, lazily (schemas are recursive: JSONSchemaProps refers to
 * itself). Identity is stable, so walks can cache per type.
 */
export class ResolvedType {
  private listCache: ResolvedList | null | undefined;
  private mapCache: ResolvedMap | null | undefined;

  constructor(
    private readonly schema: Schema,
    /** Name for diagnostics: the named type, or `<inline>`. */
    readonly name: string,
    private readonly atom: Atom,
    private readonly override: ElementRelationship | undefined,
  ) {}

  get scalar(): ScalarType | undefined {
    return this.atom.scalar;
  }

  get list(): ResolvedList | undefined {
    if (this.listCache === undefined) {
      const l = this.atom.list;
      if (!l) this.listCache = null;
      else {
        const rel = this.override ?? l.elementRelationship ?? 'atomic';
        this.listCache = {
          elementType: this.schema.resolve(l.elementType),
          atomic: rel === 'atomic',
          associative: rel === 'associative',
          keys: l.keys ?? [],
        };
      }
    }
    return this.listCache ?? undefined;
  }

  get map(): ResolvedMap | undefined {
    if (this.mapCache === undefined) {
      const m = this.atom.map;
      if (!m) this.mapCache = null;
      else {
        const rel = this.override ?? m.elementRelationship;
        const fields = new Map<string, ResolvedField>();
        for (const f of m.fields ?? []) {
          fields.set(f.name, {
            name: f.name,
            type: this.schema.resolve(f.type),
            default: f.default,
            hasDefault: f.default !== undefined,
          });
        }
        this.mapCache = {
          fields,
          elementType: m.elementType ? this.schema.resolve(m.elementType) : undefined,
          atomic: rel === 'atomic',
        };
      }
    }
    return this.mapCache ?? undefined;
  }
}

/**
 * A compiled schema: named types plus the two built-ins, with memoised resolution of type
 * references. Build one per schema document and reuse it; resolution is cached.
 */
export class Schema {
  private readonly defs = new Map<string, TypeDef>();
  private readonly named = new Map<string, ResolvedType>();
  private readonly inline = new WeakMap<TypeRef, ResolvedType>();

  constructor(doc: SchemaDocument) {
    for (const t of BUILTIN_TYPE_DEFS) this.defs.set(t.name, t);
    for (const t of doc.types) {
      if (typeof t?.name !== 'string') throw new SsaEngineError('schema-error', 'schema error: a type has no name');
      this.defs.set(t.name, t);
    }
  }

  has(name: string): boolean {
    return this.defs.has(name);
  }

  typeNames(): IterableIterator<string> {
    return this.defs.keys();
  }

  /** The resolved type named `name`; throws `schema-error` when it does not exist. */
  type(name: string): ResolvedType {
    return this.resolve({ namedType: name });
  }

  resolve(ref: TypeRef): ResolvedType {
    if (ref.namedType !== undefined) {
      const key = ref.elementRelationship ? `${ref.namedType}\u0000${ref.elementRelationship}` : ref.namedType;
      let t = this.named.get(key);
      if (!t) {
        const def = this.defs.get(ref.namedType);
        if (!def) {
          throw new SsaEngineError('schema-error', `schema error: no type found matching: ${ref.namedType}`);
        }
        t = new ResolvedType(this, ref.namedType, def, ref.elementRelationship);
        this.named.set(key, t);
      }
      return t;
    }
    let t = this.inline.get(ref);
    if (!t) {
      t = new ResolvedType(this, '<inline>', ref, ref.elementRelationship);
      this.inline.set(ref, t);
    }
    return t;
  }
}

/** The deduced schema (02 §3): no named types; roots are `__untyped_deduced_`. */
export const DEDUCED_SCHEMA = new Schema({ types: [] });
export const DEDUCED_TYPE: ResolvedType = DEDUCED_SCHEMA.type(UNTYPED_DEDUCED);
