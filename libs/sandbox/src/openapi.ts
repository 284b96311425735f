import { createHash } from 'node:crypto';
import { BUILTIN_SCHEMA_DOCUMENT, builtinTypeName, UNTYPED_ATOMIC, UNTYPED_DEDUCED, type TypeDef, type TypeRef } from '../../ssa-engine/src/index.js';
import { groupVersions } from './discovery.js';
import type { ResourceType } from './resource-type.js';

type Obj = Record<string, unknown>;

const DEFS = new Map<string, TypeDef>(BUILTIN_SCHEMA_DOCUMENT.types.map((t) => [t.name, t]));
const UNTYPED = new Set([UNTYPED_ATOMIC, UNTYPED_DEDUCED]);

const V3_PREFIX = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${V3_PREFIX}${name}` });

/**
 * Converts SMD types to OpenAPI schemas, collecting the named types they refer to. v3 documents
 * wrap references in `allOf` (as the apiserver does); v2 documents refer directly.
 */
class SchemaCollector {
  private readonly need = new Set<string>();
  readonly schemas: Obj = {};

  constructor(private readonly version: 'v2' | 'v3') {}

  ref(name: string): Obj {
    this.need.add(name);
    return this.version === 'v3' ? { allOf: [ref(name)] } : { $ref: `#/definitions/${name}` };
  }

  /** An SMD type reference as an OpenAPI schema. */
  refSchema(t: TypeRef): Obj {
    if (t.namedType) return UNTYPED.has(t.namedType) ? { 'x-kubernetes-preserve-unknown-fields': true } : this.ref(t.namedType);
    return this.atomSchema(t);
  }

  /**
   * An SMD atom as OpenAPI: maps are objects (fields → properties, element type →
   * additionalProperties), lists are arrays carrying the list type, map keys and the patch merge
   * key that strategic merge patch reads; scalars keep their kind (SMD does not tell integer from number).
   */
  atomSchema(a: TypeRef | TypeDef): Obj {
    // Untyped with list and map facets (FieldsV1's values): typeless, as the apiserver publishes free-form JSON.
    if (a.scalar === 'untyped' && (a.list || a.map)) return { 'x-kubernetes-preserve-unknown-fields': true };
    if (a.map && (a.map.fields?.length || !a.list)) {
      const out: Obj = { type: 'object' };
      if (a.map.fields?.length) out['properties'] = Object.fromEntries(a.map.fields.map((f) => [f.name, withDefault(this.refSchema(f.type), f.default)]));
      if (a.map.elementType) out['additionalProperties'] = this.refSchema(a.map.elementType);
      if (a.map.elementRelationship === 'atomic') out['x-kubernetes-map-type'] = 'atomic';
      return out;
    }
    if (a.list) {
      const out: Obj = { type: 'array', items: this.refSchema(a.list.elementType) };
      const keys = a.list.keys ?? [];
      if (a.list.elementRelationship === 'associative') {
        out['x-kubernetes-list-type'] = keys.length ? 'map' : 'set';
        if (keys.length) {
          out['x-kubernetes-list-map-keys'] = keys;
          out['x-kubernetes-patch-merge-key'] = keys[0];
        }
        out['x-kubernetes-patch-strategy'] = 'merge';
      } else out['x-kubernetes-list-type'] = 'atomic';
      return out;
    }
    switch (a.scalar) {
      case 'string':
        return { type: 'string' };
      case 'numeric':
        return { type: 'integer', format: 'int64' };
      case 'boolean':
        return { type: 'boolean' };
      default:
        // An untyped scalar (IntOrString, Time, …): a string with a format, as the apiserver publishes built-ins.
        return { type: 'string', format: 'int-or-string' };
    }
  }

  /** A CRD's schema as the apiserver publishes it: with apiVersion, kind and the built-in ObjectMeta. */
  customResourceSchema(schema: unknown): Obj {
    const s: Obj = schema !== null && typeof schema === 'object' ? { ...(schema as Obj) } : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    const props = typeof s['properties'] === 'object' && s['properties'] ? (s['properties'] as Obj) : {};
    s['properties'] = { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: this.ref(OBJECT_META), ...props };
    s['type'] = 'object';
    return s;
  }

  /** Adds the schema of every served kind, with its GVK, and of every type they reach. */
  addKinds(types: readonly ResourceType[]): void {
    for (const t of types) {
      const name = schemaName(t);
      if (t.builtin) this.need.add(name);
      else this.schemas[name] = this.customResourceSchema(t.openAPIV3Schema);
    }
    const done = new Set<string>();
    while (this.need.size) {
      const [name] = this.need;
      this.need.delete(name!);
      if (done.has(name!) || (this.schemas[name!] && !DEFS.has(name!))) continue;
      done.add(name!);
      const def = DEFS.get(name!);
      this.schemas[name!] = def ? this.atomSchema(def) : { 'x-kubernetes-preserve-unknown-fields': true };
    }
    for (const t of types) this.schemas[schemaName(t)] = { ...(this.schemas[schemaName(t)] as Obj), 'x-kubernetes-group-version-kind': gvkOf(t) };
  }
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** A property's schema with the field's default, where it has one (list keys' defaults matter to ownership: 02 §2). */
function withDefault(schema: Obj, value: unknown): Obj {
  return value === undefined ? schema : { ...schema, default: value };
}

function schemaName(t: ResourceType): string {
  return t.builtin ? builtinTypeName(t.apiVersion, t.kind)! : `${t.group}.${t.version}.${t.kind}`;
}

function gvkOf(t: ResourceType) {
  return [{ group: t.group, kind: t.kind, version: t.version }];
}

const FIELD_VALIDATION = { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } };
const FIELD_MANAGER = { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } };
const DRY_RUN = { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } };
const FORCE = { name: 'force', in: 'query', schema: { type: 'boolean', uniqueItems: true } };

function operations(t: ResourceType, schemaName: string): Obj {
  const ext = { 'x-kubernetes-group-version-kind': gvkOf(t)[0] };
  const body = { content: { 'application/json': { schema: ref(schemaName) } } };
  const ok = { '200': { description: 'OK', content: { 'application/json': { schema: ref(schemaName) } } } };
  return {
    get: { operationId: `read${t.kind}`, responses: ok, 'x-kubernetes-action': 'get', ...ext },
    put: { operationId: `replace${t.kind}`, requestBody: body, parameters: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION], responses: ok, 'x-kubernetes-action': 'put', ...ext },
    patch: {
      operationId: `patch${t.kind}`,
      requestBody: {
        // kubectl computes strategic merge patches only where the operation accepts them (not for custom resources).
        content: Object.fromEntries(
          ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', ...(t.builtin ? ['application/strategic-merge-patch+json'] : [])].map((c) => [
            c,
            { schema: { type: 'object' } },
          ]),
        ),
      },
      parameters: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION, FORCE],
      responses: ok,
      'x-kubernetes-action': 'patch',
      ...ext,
    },
    delete: { operationId: `delete${t.kind}`, responses: ok, 'x-kubernetes-action': 'delete', ...ext },
  };
}

function collectionOps(t: ResourceType, schemaName: string): Obj {
  const ext = { 'x-kubernetes-group-version-kind': gvkOf(t)[0] };
  const body = { content: { 'application/json': { schema: ref(schemaName) } } };
  return {
    post: { operationId: `create${t.kind}`, requestBody: body, parameters: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION], responses: { '201': { description: 'Created' } }, 'x-kubernetes-action': 'post', ...ext },
    get: { operationId: `list${t.kind}`, responses: { '200': { description: 'OK' } }, 'x-kubernetes-action': 'list', ...ext },
  };
}

/** The OpenAPI v3 document of one group-version (`/openapi/v3/apis/apps/v1`). */
export function openApiV3Document(types: readonly ResourceType[], group: string, version: string): Obj | undefined {
  const here = types.filter((t) => t.group === group && t.version === version);
  if (!here.length) return undefined;
  const collector = new SchemaCollector('v3');
  collector.addKinds(here);
  const paths: Obj = {};
  for (const t of here) {
    const base = `/${group ? `apis/${group}` : 'api'}/${version}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.plural}`;
    paths[base] = collectionOps(t, schemaName(t));
    paths[`${base}/{name}`] = operations(t, schemaName(t));
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths, components: { schemas: collector.schemas } };
}

/** `/openapi/v2` (JSON only): the definitions of every served kind, for clients that read v2. */
export function openApiV2Document(types: readonly ResourceType[]): Obj {
  const collector = new SchemaCollector('v2');
  collector.addKinds(types);
  return { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths: {}, definitions: collector.schemas };
}

/** The paths of a group-version inside `/openapi/v3`. */
export function openApiV3Path(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/** `/openapi/v3`: every group-version with the URL (and content hash) of its document. */
export function openApiV3Index(types: readonly ResourceType[], doc: (path: string) => string | undefined): Obj {
  const paths: Obj = {};
  for (const g of groupVersions(types))
    for (const v of g.versions) {
      const p = openApiV3Path(g.group, v);
      const body = doc(p);
      if (body === undefined) continue;
      const hash = createHash('sha512').update(body).digest('hex').slice(0, 128).toUpperCase();
      paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${hash}` };
    }
  return { paths };
}
