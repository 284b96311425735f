import { BUILTIN_SCHEMA, DEDUCED_TYPE, builtinTypeName, type ResolvedType } from '../../ssa-engine/src/index.js';

/**
 * Port: the schema type of objects of `apiVersion`/`kind` in `cluster`. The store implements it
 * from the cluster's downloaded OpenAPI (`schemaFromOpenApi` / `schemaFromCrd`); it must return the
 * same type for the same arguments while a replay runs, or replays stop being deterministic.
 */
export type SchemaResolver = (apiVersion: string, kind: string, cluster: string) => ResolvedType;

/** The bundled schema for built-in kinds, the deduced (schema-less) type for everything else. */
export const defaultSchemaResolver: SchemaResolver = (apiVersion, kind) => {
  const name = builtinTypeName(apiVersion, kind);
  return name ? BUILTIN_SCHEMA.type(name) : DEDUCED_TYPE;
};

/** `group/version`, or `version` for the core group. */
export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}
