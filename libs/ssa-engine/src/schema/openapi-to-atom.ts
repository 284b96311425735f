/**
 * One OpenAPI schema node (v2 or v3; Kubernetes uses the same extensions in both) to an SMD atom,
 * per spec 02 §2. Issues are collected, not thrown; the conversion always produces a best-effort
 * atom so a caller can still inspect it.
 */
import {
  UNTYPED_ATOMIC,
  UNTYPED_DEDUCED,
  type Atom,
  type ElementRelationship,
  type ListType,
  type MapType,
  type ScalarType,
  type StructField,
  type TypeRef,
} from './schema.js';

/** An OpenAPI / JSON schema node as parsed JSON (untrusted). */
export type OpenApiSchema = Readonly<Record<string, unknown>>;

/** A problem found while converting; `type` names the definition it was found in. */
export interface SchemaConversionIssue {
  readonly type: string;
  readonly message: string;
}

/** Definitions with a hard-coded model, whatever their OpenAPI says (02 §2.1). */
export const QUANTITY_TYPE = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const RAW_EXTENSION_TYPE = 'io.k8s.apimachinery.pkg.runtime.RawExtension';

export function isSchemaObject(x: unknown): x is OpenApiSchema {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function own(node: OpenApiSchema, key: string): unknown {
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

/** The name a `$ref` points at: its last path segment (`#/definitions/a.b.C` → `a.b.C`). */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** The `$ref` of a node, also when wrapped in a single-element `allOf` (OpenAPI v3 style). */
function refOf(node: OpenApiSchema): string | undefined {
  const ref = own(node, '$ref');
  if (typeof ref === 'string' && ref.length > 0) return ref;
  const allOf = own(node, 'allOf');
  if (Array.isArray(allOf) && allOf.length === 1 && isSchemaObject(allOf[0])) {
    const inner = own(allOf[0], '$ref');
    if (typeof inner === 'string' && inner.length > 0) return inner;
  }
  return undefined;
}

/**
 * Converts the nodes of one named definition. `preserveUnknownFields` is the mode in effect (02
 * §2.4): set by `x-kubernetes-preserve-unknown-fields: true` on a node, inherited by inline
 * descendants, never carried across a `$ref`.
 */
export class OpenApiNodeConverter {
  constructor(
    private readonly typeName: string,
    private readonly issues: SchemaConversionIssue[],
    private readonly depthLimit: number,
  ) {}

  private report(message: string): void {
    this.issues.push({ type: this.typeName, message });
  }

  /** The atom of a node (a definition or an inline sub-schema). */
  atom(node: OpenApiSchema, preserveUnknownFields: boolean, depth = 0): Atom {
    if (depth > this.depthLimit) {
      this.report(`schema nested deeper than ${this.depthLimit}`);
      return { scalar: 'untyped' };
    }
    const preserve = preserveUnknownFields || own(node, 'x-kubernetes-preserve-unknown-fields') === true;
    const rawType = own(node, 'type');
    // Kubernetes publishes a single type string; a list form takes its first entry.
    const type = Array.isArray(rawType) ? rawType[0] : rawType;
    switch (type) {
      case undefined:
      case '':
        // No type: anything goes, each facet derived from the same node.
        return {
          scalar: 'untyped',
          list: this.list(node, preserve, depth, false),
          map: this.map(node, preserve, depth),
        };
      case 'object':
        return { map: this.map(node, preserve, depth) };
      case 'array':
        return { list: this.list(node, preserve, depth, true) };
      case 'integer':
      case 'number':
      case 'boolean':
      case 'string':
        return { scalar: primitive(type, own(node, 'format')) };
      default:
        this.report(`unrecognized type: ${JSON.stringify(type)}`);
        return { scalar: 'untyped' };
    }
  }

  /** A reference to a named type, or the inline atom of a sub-schema. */
  ref(node: unknown, preserveUnknownFields: boolean, depth: number): TypeRef {
    if (!isSchemaObject(node)) {
      this.report(`expected a schema object, got ${JSON.stringify(node)}`);
      return { namedType: UNTYPED_DEDUCED };
    }
    const ref = refOf(node);
    if (ref !== undefined) {
      const name = refName(ref);
      if (name === RAW_EXTENSION_TYPE) return { namedType: UNTYPED_ATOMIC };
      const rel = this.mapRelationship(node);
      return rel ? { namedType: name, elementRelationship: rel } : { namedType: name };
    }
    return this.atom(node, preserveUnknownFields, depth + 1);
  }

  /** `x-kubernetes-map-type`: atomic / granular (separable); absent → no override. */
  private mapRelationship(node: OpenApiSchema): ElementRelationship | undefined {
    if (!Object.hasOwn(node, 'x-kubernetes-map-type')) return undefined;
    const v = node['x-kubernetes-map-type'];
    if (v === 'atomic') return 'atomic';
    if (v === 'granular') return 'separable';
    this.report(`unknown map type ${JSON.stringify(v)}`);
    return undefined;
  }

  private map(node: OpenApiSchema, preserve: boolean, depth: number): MapType {
    const properties = own(node, 'properties');
    const fields: StructField[] = [];
    if (isSchemaObject(properties)) {
      for (const name of Object.keys(properties).sort()) {
        const member = properties[name];
        const type = this.ref(member, preserve, depth);
        const def = isSchemaObject(member) ? own(member, 'default') : undefined;
        fields.push(def === undefined || def === null ? { name, type } : { name, type, default: def });
      }
    } else if (properties !== undefined) {
      this.report('properties must be an object');
    }

    let elementType: TypeRef | undefined;
    const additional = own(node, 'additionalProperties');
    if (additional === undefined) {
      // A free-form object (no properties) or preserve mode accepts any key, deduced.
      if (preserve || fields.length === 0) elementType = { namedType: UNTYPED_DEDUCED };
    } else if (additional === true) {
      elementType = { namedType: UNTYPED_DEDUCED };
    } else if (additional !== false) {
      elementType = this.ref(additional, preserve, depth);
    }

    const rel = this.mapRelationship(node);
    return {
      ...(fields.length > 0 ? { fields } : {}),
      ...(elementType ? { elementType } : {}),
      ...(rel ? { elementRelationship: rel } : {}),
    };
  }

  private list(node: OpenApiSchema, preserve: boolean, depth: number, typed: boolean): ListType {
    const { relationship, keys } = this.listRelationship(node);
    let elementType: TypeRef;
    const items = own(node, 'items');
    if (items === undefined) {
      if (typed) this.report('`items` must be specified on arrays');
      elementType = { namedType: UNTYPED_ATOMIC };
    } else if (!isSchemaObject(items)) {
      this.report('structural schema arrays must have exactly one member subtype');
      elementType = { namedType: UNTYPED_DEDUCED };
    } else {
      elementType = this.ref(items, preserve, depth);
    }
    return { elementType, elementRelationship: relationship, ...(keys.length > 0 ? { keys } : {}) };
  }

  /** List type, then patch strategy, then atomic (02 §2.3). */
  private listRelationship(node: OpenApiSchema): { relationship: ElementRelationship; keys: string[] } {
    if (Object.hasOwn(node, 'x-kubernetes-list-type')) {
      const listType = node['x-kubernetes-list-type'];
      switch (listType) {
        case 'atomic':
          return { relationship: 'atomic', keys: [] };
        case 'set':
          return { relationship: 'associative', keys: [] };
        case 'map': {
          const keys = own(node, 'x-kubernetes-list-map-keys');
          if (keys === undefined) {
            this.report('missing map keys');
            return { relationship: 'associative', keys: [] };
          }
          if (!Array.isArray(keys)) {
            this.report(`uninterpreted map keys: ${JSON.stringify(keys)}`);
            return { relationship: 'associative', keys: [] };
          }
          return { relationship: 'associative', keys: keys.filter((k): k is string => typeof k === 'string') };
        }
        default:
          this.report(`unknown list type ${JSON.stringify(listType)}`);
          return { relationship: 'atomic', keys: [] };
      }
    }
    if (Object.hasOwn(node, 'x-kubernetes-patch-strategy')) {
      const strategy = node['x-kubernetes-patch-strategy'];
      if (strategy === 'merge' || strategy === 'merge,retainKeys') {
        if (!Object.hasOwn(node, 'x-kubernetes-patch-merge-key')) return { relationship: 'associative', keys: [] };
        const key = node['x-kubernetes-patch-merge-key'];
        if (typeof key === 'string') return { relationship: 'associative', keys: [key] };
        this.report(`uninterpreted merge key: ${JSON.stringify(key)}`);
        return { relationship: 'associative', keys: [] };
      }
      if (strategy === 'retainKeys') return { relationship: 'atomic', keys: [] };
      this.report(`unknown patch strategy ${JSON.stringify(strategy)}`);
      return { relationship: 'atomic', keys: [] };
    }
    return { relationship: 'atomic', keys: [] };
  }
}

/** integer/number → numeric, boolean → boolean, string → string unless a format (other than byte). */
function primitive(type: 'integer' | 'number' | 'boolean' | 'string', format: unknown): ScalarType {
  switch (type) {
    case 'integer':
    case 'number':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    case 'string':
      return format === undefined || format === '' || format === 'byte' ? 'string' : 'untyped';
  }
}
