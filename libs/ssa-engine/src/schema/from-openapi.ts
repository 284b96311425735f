/**
 * OpenAPI (v2 `definitions` or v3 `components.schemas`) and CRD `openAPIV3Schema` → the SMD type
 * model (spec 02 §2). Every conversion has a result form (`safe…`: the document plus the issues
 * found) and a throwing form (`schema-conversion` error listing the issues).
 */
import { MAX_DEPTH, SsaEngineError } from '../errors.js';
import { BUILTIN_SCHEMA_DOCUMENT } from './builtin-schema.js';
import {
  OpenApiNodeConverter,
  QUANTITY_TYPE,
  RAW_EXTENSION_TYPE,
  isSchemaObject,
  type OpenApiSchema,
  type SchemaConversionIssue,
} from './openapi-to-atom.js';
import { BUILTIN_TYPE_DEFS, type SchemaDocument, type TypeDef } from './schema.js';
import { typeClosure } from './type-closure.js';

export type { OpenApiSchema, SchemaConversionIssue } from './openapi-to-atom.js';

export interface OpenApiConversionOptions {
  /** Convert every definition in preserve-unknown-fields mode (02 §2.4). Default false. */
  readonly preserveUnknownFields?: boolean;
}

/** A conversion's outcome: the document (best effort when there are issues) and the issues. */
export interface SchemaConversionResult {
  readonly document: SchemaDocument;
  readonly errors: readonly SchemaConversionIssue[];
}

/** A group/version/kind as `x-kubernetes-group-version-kind` lists it (core group: `""`). */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The definitions of an OpenAPI v2 (`definitions`) or v3 (`components.schemas`) document. */
export function openApiDefinitions(doc: unknown): Readonly<Record<string, unknown>> {
  if (!isSchemaObject(doc)) throw new SsaEngineError('schema-conversion', 'an OpenAPI document must be an object');
  const components = doc['components'];
  if (isSchemaObject(components) && isSchemaObject(components['schemas'])) return components['schemas'];
  if (isSchemaObject(doc['definitions'])) return doc['definitions'];
  throw new SsaEngineError(
    'schema-conversion',
    'not an OpenAPI document: neither components.schemas (v3) nor definitions (v2) found',
  );
}

/**
 * Converts the named definitions of an OpenAPI schema map (v2 `definitions` or v3
 * `components.schemas`) into a `SchemaDocument`, types sorted by name, followed by the two
 * untyped built-ins. Top-level references are skipped; Quantity is a scalar untyped and
 * RawExtension the untyped atomic type whatever their OpenAPI says.
 */
export function safeSchemaFromDefinitions(
  definitions: Readonly<Record<string, unknown>>,
  options: OpenApiConversionOptions = {},
): SchemaConversionResult {
  const errors: SchemaConversionIssue[] = [];
  const types: TypeDef[] = [];
  for (const name of Object.keys(definitions).sort()) {
    const node = definitions[name];
    if (!isSchemaObject(node)) {
      errors.push({ type: name, message: 'definition is not a schema object' });
      continue;
    }
    if (typeof node['$ref'] === 'string' && node['$ref'].length > 0) continue;
    if (name === QUANTITY_TYPE) types.push({ name, scalar: 'untyped' });
    else if (name === RAW_EXTENSION_TYPE) types.push({ ...BUILTIN_TYPE_DEFS[0]!, name });
    else {
      const converter = new OpenApiNodeConverter(name, errors, MAX_DEPTH);
      types.push({ name, ...converter.atom(node, options.preserveUnknownFields ?? false) });
    }
  }
  return { document: { types: [...types, ...BUILTIN_TYPE_DEFS] }, errors };
}

/**
 * Converts an OpenAPI v2 or v3 document (see `safeSchemaFromDefinitions`). Returns the document
 * and the conversion issues; throws only when `doc` is not an OpenAPI document at all.
 */
export function safeSchemaFromOpenApi(doc: unknown, options: OpenApiConversionOptions = {}): SchemaConversionResult {
  return safeSchemaFromDefinitions(openApiDefinitions(doc), options);
}

/**
 * Converts an OpenAPI v2 or v3 document into a `SchemaDocument`.
 * @throws SsaEngineError `schema-conversion` listing every issue (`<type>: <message>` per line)
 */
export function schemaFromOpenApi(doc: unknown, options: OpenApiConversionOptions = {}): SchemaDocument {
  return orThrow(safeSchemaFromOpenApi(doc, options));
}

function orThrow(result: SchemaConversionResult): SchemaDocument {
  if (result.errors.length > 0) {
    throw new SsaEngineError('schema-conversion', result.errors.map((e) => `${e.type}: ${e.message}`).join('\n'));
  }
  return result.document;
}

function gvkOf(apiVersionOrGvk: string | GroupVersionKind, kind?: string): GroupVersionKind {
  if (typeof apiVersionOrGvk !== 'string') return apiVersionOrGvk;
  const slash = apiVersionOrGvk.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersionOrGvk, kind: kind ?? '' }
    : { group: apiVersionOrGvk.slice(0, slash), version: apiVersionOrGvk.slice(slash + 1), kind: kind ?? '' };
}

/**
 * The name of the definition bound to a kind: the one whose `x-kubernetes-group-version-kind`
 * lists the group/version/kind (first in name order when several do), or `undefined`.
 * Accepts `(doc, {group, version, kind})` or `(doc, apiVersion, kind)`.
 */
export function findTypeForGvk(doc: unknown, gvk: GroupVersionKind): string | undefined;
export function findTypeForGvk(doc: unknown, apiVersion: string, kind: string): string | undefined;
export function findTypeForGvk(doc: unknown, gvkOrApiVersion: GroupVersionKind | string, kind?: string): string | undefined {
  const want = gvkOf(gvkOrApiVersion, kind);
  const definitions = openApiDefinitions(doc);
  for (const name of Object.keys(definitions).sort()) {
    const node = definitions[name];
    if (!isSchemaObject(node)) continue;
    const list = node['x-kubernetes-group-version-kind'];
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      if (!isSchemaObject(entry)) continue;
      if ((entry['group'] ?? '') === want.group && entry['version'] === want.version && entry['kind'] === want.kind) {
        return name;
      }
    }
  }
  return undefined;
}

export const OBJECT_META_TYPE = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

export interface CrdConversionOptions {
  /** Name of the root type in the produced document. Default `io.k8s.crd.Root`. */
  readonly typeName?: string;
  /** The CRD's legacy `spec.preserveUnknownFields: true`: the whole schema in preserve mode. */
  readonly preserveUnknownFields?: boolean;
  /**
   * Add what the apiserver adds to a CRD's published schema: `apiVersion` and `kind` strings and
   * `metadata` as a reference to ObjectMeta (whose types, from the bundled built-in schema, are
   * included in the document). Default true.
   */
  readonly standardFields?: boolean;
}

/** A CRD conversion's outcome: the document, its root type's name and the issues. */
export interface CrdConversionResult extends SchemaConversionResult {
  readonly rootType: string;
}

/**
 * Converts a CRD version's `schema.openAPIV3Schema` (a bare JSON schema, no `$ref`s) into a
 * document with one root type (plus ObjectMeta's types with `standardFields`), the two untyped
 * built-ins last.
 */
export function safeSchemaFromCrd(openAPIV3Schema: unknown, options: CrdConversionOptions = {}): CrdConversionResult {
  const rootType = options.typeName ?? 'io.k8s.crd.Root';
  const errors: SchemaConversionIssue[] = [];
  const types: TypeDef[] = [];
  if (!isSchemaObject(openAPIV3Schema)) {
    errors.push({ type: rootType, message: 'openAPIV3Schema must be a schema object' });
    return { document: { types: [...BUILTIN_TYPE_DEFS] }, rootType, errors };
  }
  let node: OpenApiSchema = openAPIV3Schema;
  if (options.standardFields ?? true) {
    const properties = isSchemaObject(node['properties']) ? node['properties'] : {};
    node = {
      ...node,
      properties: {
        ...properties,
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { $ref: `#/components/schemas/${OBJECT_META_TYPE}` },
      },
    };
    types.push(...typeClosure(BUILTIN_SCHEMA_DOCUMENT, OBJECT_META_TYPE));
  }
  const converter = new OpenApiNodeConverter(rootType, errors, MAX_DEPTH);
  types.unshift({ name: rootType, ...converter.atom(node, options.preserveUnknownFields ?? false) });
  return { document: { types: [...types, ...BUILTIN_TYPE_DEFS] }, rootType, errors };
}

/**
 * Converts a CRD version's `openAPIV3Schema` (see `safeSchemaFromCrd`).
 * @throws SsaEngineError `schema-conversion` listing every issue
 */
export function schemaFromCrd(
  openAPIV3Schema: unknown,
  options: CrdConversionOptions = {},
): { readonly document: SchemaDocument; readonly rootType: string } {
  const result = safeSchemaFromCrd(openAPIV3Schema, options);
  return { document: orThrow(result), rootType: result.rootType };
}
