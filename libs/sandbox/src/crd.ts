import {
  BUILTIN_SCHEMA_DOCUMENT,
  DEDUCED_TYPE,
  Schema,
  UNTYPED_DEDUCED,
  type ResolvedType,
  type StructField,
  type TypeDef,
  type TypeRef,
} from '../../ssa-engine/src/index.js';
import type { PrinterColumn, ResourceType, ScaleSpec } from './resource-type.js';
import { type Obj, isObject } from './json.js';

/**
 * Turns a CRD version's `openAPIV3Schema` into the type the SSA engine tracks its objects with.
 * The seam where the project's OpenAPI → schema converter (`schema/from-openapi.ts`) plugs in.
 */
export type CrdSchemaConverter = (openAPIV3Schema: unknown, typeName: string) => ResolvedType;

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** JSON Schema (structural, with the `x-kubernetes-*` extensions) → an SMD type reference. */
function toTypeRef(s: unknown): TypeRef {
  if (!isObject(s) || s['x-kubernetes-preserve-unknown-fields'] === true && !isObject(s['properties'])) return { namedType: UNTYPED_DEDUCED };
  if (s['x-kubernetes-int-or-string'] === true) return { scalar: 'untyped' };
  switch (s['type']) {
    case 'string':
      return { scalar: 'string' };
    case 'integer':
    case 'number':
      return { scalar: 'numeric' };
    case 'boolean':
      return { scalar: 'boolean' };
    case 'array': {
      const lt = s['x-kubernetes-list-type'];
      const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? (s['x-kubernetes-list-map-keys'] as string[]) : [];
      const elementType = toTypeRef(s['items']);
      if (lt === 'map') return { list: { elementType, elementRelationship: 'associative', keys } };
      if (lt === 'set') return { list: { elementType, elementRelationship: 'associative' } };
      return { list: { elementType, elementRelationship: 'atomic' } };
    }
    case 'object':
    default: {
      const props = isObject(s['properties']) ? (s['properties'] as Obj) : undefined;
      const atomic = s['x-kubernetes-map-type'] === 'atomic';
      const fields: StructField[] = props ? Object.entries(props).map(([name, p]) => ({ name, type: toTypeRef(p) })) : [];
      const ap = s['additionalProperties'];
      let elementType: TypeRef | undefined;
      if (isObject(ap)) elementType = toTypeRef(ap);
      else if (ap === true || s['x-kubernetes-preserve-unknown-fields'] === true) elementType = { namedType: UNTYPED_DEDUCED };
      else if (!props) elementType = { namedType: UNTYPED_DEDUCED };
      return { map: { fields, ...(elementType ? { elementType } : {}), ...(atomic ? { elementRelationship: 'atomic' } : {}) } };
    }
  }
}

/**
 * A minimal OpenAPI v3 → SMD conversion for CRD schemas: properties, items, additionalProperties,
 * `x-kubernetes-list-type` (atomic, set, map + `x-kubernetes-list-map-keys`),
 * `x-kubernetes-map-type`, `x-kubernetes-preserve-unknown-fields` and `x-kubernetes-int-or-string`;
 * `metadata` is always the built-in ObjectMeta, as the apiserver does for custom resources.
 */
export const defaultCrdSchemaConverter: CrdSchemaConverter = (openAPIV3Schema, typeName) => {
  if (!isObject(openAPIV3Schema)) return DEDUCED_TYPE;
  const root = toTypeRef({ ...openAPIV3Schema, type: 'object' });
  const fields = (root.map?.fields ?? []).filter((f) => f.name !== 'metadata' && f.name !== 'apiVersion' && f.name !== 'kind');
  const def: TypeDef = {
    name: typeName,
    map: {
      ...root.map,
      fields: [
        { name: 'apiVersion', type: { scalar: 'string' } },
        { name: 'kind', type: { scalar: 'string' } },
        { name: 'metadata', type: { namedType: OBJECT_META } },
        ...fields,
      ],
    },
  };
  return new Schema({ types: [...BUILTIN_SCHEMA_DOCUMENT.types, def] }).type(typeName);
};

function fail(message: string): never {
  throw new Error(message);
}

/** The resources a CustomResourceDefinition serves: one per served version. Throws on a malformed CRD. */
export function crdResourceTypes(crd: Obj, convert: CrdSchemaConverter): ResourceType[] {
  const spec = isObject(crd['spec']) ? crd['spec'] : fail('spec: Required value');
  const group = typeof spec['group'] === 'string' && spec['group'] ? spec['group'] : fail('spec.group: Required value');
  const names = isObject(spec['names']) ? spec['names'] : fail('spec.names: Required value');
  const plural = typeof names['plural'] === 'string' && names['plural'] ? names['plural'] : fail('spec.names.plural: Required value');
  const kind = typeof names['kind'] === 'string' && names['kind'] ? names['kind'] : fail('spec.names.kind: Required value');
  const md = isObject(crd['metadata']) ? crd['metadata'] : {};
  if (md['name'] !== `${plural}.${group}`) fail(`metadata.name: Invalid value: "${String(md['name'])}": must be spec.names.plural+"."+spec.group`);
  const scope = spec['scope'];
  if (scope !== 'Namespaced' && scope !== 'Cluster') fail(`spec.scope: Unsupported value: "${String(scope)}": supported values: "Cluster", "Namespaced"`);
  const versions = Array.isArray(spec['versions']) && spec['versions'].length ? (spec['versions'] as unknown[]) : fail('spec.versions: Invalid value: must have exactly one version marked as storage version');
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return versions.filter(isObject).filter((v) => v['served'] !== false).map((v) => {
    const version = typeof v['name'] === 'string' && v['name'] ? v['name'] : fail('spec.versions[].name: Required value');
    const sub = isObject(v['subresources']) ? v['subresources'] : {};
    const sc = isObject(sub['scale']) ? sub['scale'] : undefined;
    // The engine maps `/scale` onto `.spec.replicas` only; other replica paths are not served.
    const scale: ScaleSpec | undefined =
      sc && (sc['specReplicasPath'] ?? '.spec.replicas') === '.spec.replicas'
        ? {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: String(sc['statusReplicasPath'] ?? '.status.replicas'),
            ...(typeof sc['labelSelectorPath'] === 'string' ? { labelSelectorPath: sc['labelSelectorPath'] } : {}),
          }
        : undefined;
    const schema = isObject(v['schema']) ? v['schema']['openAPIV3Schema'] : undefined;
    const printerColumns: PrinterColumn[] = (Array.isArray(v['additionalPrinterColumns']) ? v['additionalPrinterColumns'] : []).filter(isObject).map((c) => ({
      name: String(c['name'] ?? ''),
      type: String(c['type'] ?? 'string'),
      jsonPath: String(c['jsonPath'] ?? ''),
      priority: Number(c['priority'] ?? 0),
    }));
    return {
      group,
      version,
      apiVersion: `${group}/${version}`,
      kind,
      plural,
      singular: typeof names['singular'] === 'string' && names['singular'] ? names['singular'] : kind.toLowerCase(),
      namespaced: scope === 'Namespaced',
      shortNames: strings(names['shortNames']),
      categories: strings(names['categories']),
      status: isObject(sub['status']),
      ...(scale ? { scale } : {}),
      type: convert(schema, `${group}.${version}.${kind}`),
      builtin: false,
      generation: true,
      openAPIV3Schema: schema,
      ...(printerColumns.length ? { printerColumns } : {}),
    };
  });
}

/**
 * Structural pruning of a custom resource: keys a map type does not declare (and that no element
 * type admits) are dropped, as the apiserver drops unknown fields of custom resources.
 */
export function pruneUnknownFields(value: unknown, type: ResolvedType): unknown {
  if (Array.isArray(value)) {
    const el = type.list?.elementType;
    return el ? value.map((v) => pruneUnknownFields(v, el)) : value;
  }
  if (!isObject(value)) return value;
  const m = type.map;
  if (!m) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    const t = m.fields.get(k)?.type ?? m.elementType;
    if (!t) continue;
    Object.defineProperty(out, k, { value: pruneUnknownFields(v, t), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
