import { apiVersionOf, defaultSchemaResolver, type SchemaResolver } from './schema-resolver.port.js';

/** The projected objects of one kind in one cluster that were folded with one schema (by digest). */
export interface ProjectedSchemaGroup {
  readonly cluster: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The digest the states recorded; `null` for states projected before schemas were recorded (the default resolver's then). */
  readonly digest: string | null;
  readonly objects: number;
}

/**
 * The groups whose objects must be projected again: folded with another schema than the one
 * `resolver` chooses now (a CRD's schema arrived after its objects were projected with the deduced
 * one, a cluster's built-in schema differs from the bundled one, a CRD changed).
 */
export function staleSchemaGroups(groups: readonly ProjectedSchemaGroup[], resolver: SchemaResolver): ProjectedSchemaGroup[] {
  return groups.filter((g) => !foldedWithChosenSchema(g, resolver));
}

/** What a stored state says of the kind it was folded for and with which schema (`digest`: `null` before schemas were recorded). */
export type FoldedKind = Pick<ProjectedSchemaGroup, 'cluster' | 'group' | 'version' | 'kind' | 'digest'>;

/** The state (or group of states) was folded with the schema `resolver` chooses now for its kind. */
export function foldedWithChosenSchema(s: FoldedKind, resolver: SchemaResolver): boolean {
  const apiVersion = apiVersionOf(s.group, s.version);
  const recorded = s.digest ?? defaultSchemaResolver(apiVersion, s.kind, s.cluster).digest;
  return recorded === resolver(apiVersion, s.kind, s.cluster).digest;
}
