import { BUILTIN_SCHEMA, BUILTIN_SCHEMA_DOCUMENT, DEDUCED_TYPE, builtinTypeName, typeClosure, type ResolvedType } from '../../ssa-engine/src/index.js';
import { schemaDigest } from './schema-digest.js';

/**
 * Where the schema of an object's kind came from:
 * - `cluster`: the cluster's own OpenAPI document (a CRD's published schema, or a built-in kind whose
 *   schema in the cluster differs from the bundled one);
 * - `bundled`: the built-in schema shipped with ssa-audit (Kubernetes 1.36), the same as the cluster's
 *   where the cluster's is known;
 * - `deduced`: none known; the structure is deduced from the values (every list atomic: one owner
 *   for a whole list).
 */
export type SchemaSource = 'cluster' | 'bundled' | 'deduced';

/** Which schema an answer was computed with, as answers and projection states carry it. */
export interface SchemaUsed {
  readonly source: SchemaSource;
  /** The OpenAPI definition's name (`io.k8s.api.apps.v1.Deployment`, `com.example.v1.Widget`); `null` when deduced. */
  readonly typeName: string | null;
  /**
   * Identifies the structure: two schemas with the same digest give the same ownership (the bundled
   * schema and an identical cluster one share it). Projections record it to find what to re-project.
   */
  readonly digest: string;
}

/** A resolved schema type and where it came from. */
export interface SchemaChoice extends SchemaUsed {
  readonly type: ResolvedType;
}

/**
 * Port: the schema of objects of `apiVersion`/`kind` in `cluster`. The store implements it from the
 * cluster's stored OpenAPI documents (`SchemaCatalog`); it must give the same choice for the same
 * arguments while a replay runs, or replays stop being deterministic.
 */
export type SchemaResolver = (apiVersion: string, kind: string, cluster: string) => SchemaChoice;

const DEDUCED_DIGEST = 'deduced';

/** The deduced (schema-less) choice. */
export const DEDUCED_CHOICE: SchemaChoice = { type: DEDUCED_TYPE, source: 'deduced', typeName: null, digest: DEDUCED_DIGEST };

const bundled = new Map<string, SchemaChoice>();

/** The bundled schema's choice for a built-in kind's type name (memoised). */
export function bundledChoice(typeName: string): SchemaChoice {
  let c = bundled.get(typeName);
  if (!c) {
    c = { type: BUILTIN_SCHEMA.type(typeName), source: 'bundled', typeName, digest: schemaDigest(typeClosure(BUILTIN_SCHEMA_DOCUMENT, typeName)) };
    bundled.set(typeName, c);
  }
  return c;
}

/** The bundled schema for built-in kinds, the deduced (schema-less) type for everything else. */
export const defaultSchemaResolver: SchemaResolver = (apiVersion, kind) => {
  const name = builtinTypeName(apiVersion, kind);
  return name ? bundledChoice(name) : DEDUCED_CHOICE;
};

/** What a choice tells an answer (without the resolved type). */
export const schemaUsed = (c: SchemaUsed): SchemaUsed => ({ source: c.source, typeName: c.typeName, digest: c.digest });

/** The schema a stored state records; states stored before schemas were recorded (`null`) were folded with the default resolver's choice. */
export const recordedSchema = (schema: SchemaUsed | null, apiVersion: string, kind: string, cluster: string): SchemaUsed =>
  schema ?? schemaUsed(defaultSchemaResolver(apiVersion, kind, cluster));

/** `group/version`, or `version` for the core group. */
export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}
