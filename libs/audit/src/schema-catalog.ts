import { Schema, builtinTypeName, findTypeForGvk, safeSchemaFromOpenApi, typeClosure, type SchemaDocument } from '../../ssa-engine/src/index.js';
import { schemaDigest } from './schema-digest.js';
import { bundledChoice, defaultSchemaResolver, type SchemaChoice, type SchemaResolver } from './schema-resolver.port.js';

/** One OpenAPI document a cluster published: v3 per group-version (`apis/apps/v1`, `api/v1`), or the single `openapi/v2`. */
export interface ClusterSchemaDocument {
  readonly cluster: string;
  readonly path: string;
  /** `null` when the cache already holds the document converted (the store reads it only once). */
  readonly document: unknown;
  /** Identifies the document's content (the store's hash): converted documents are cached by it. */
  readonly hash: string;
}

/** A document converted to the engine's type model, shared between catalogs while its content is unchanged. */
interface ConvertedDocument {
  readonly raw: unknown;
  readonly types: SchemaDocument | null;
  readonly schema: Schema | null;
}

/** Documents converted once per content hash, kept across catalogs (a refresh converts only what changed). */
export type ConvertedDocumentCache = Map<string, ConvertedDocument>;

const V2_PATH = 'openapi/v2';

/**
 * The schemas of every cluster's kinds, from their stored OpenAPI documents: for `apiVersion`/`kind`
 * in a cluster, the definition its group-version's document binds to the kind
 * (`x-kubernetes-group-version-kind`); the bundled schema where that is the same structure (or the
 * cluster published none for a built-in kind); the deduced type where nothing is known. Choices are
 * memoised: one catalog answers the same way for its whole life (build a new one when documents change).
 */
export class SchemaCatalog {
  private readonly byCluster = new Map<string, Map<string, ClusterSchemaDocument>>();
  private readonly choices = new Map<string, SchemaChoice>();

  constructor(
    documents: readonly ClusterSchemaDocument[],
    private readonly converted: ConvertedDocumentCache = new Map(),
  ) {
    for (const d of documents) {
      let paths = this.byCluster.get(d.cluster);
      if (!paths) this.byCluster.set(d.cluster, (paths = new Map()));
      paths.set(d.path, d);
    }
  }

  readonly resolve: SchemaResolver = (apiVersion, kind, cluster) => {
    const key = `${cluster}\u0000${apiVersion}\u0000${kind}`;
    let c = this.choices.get(key);
    if (!c) this.choices.set(key, (c = this.choose(apiVersion, kind, cluster)));
    return c;
  };

  private choose(apiVersion: string, kind: string, cluster: string): SchemaChoice {
    const paths = this.byCluster.get(cluster);
    const doc = paths?.get(groupVersionPath(apiVersion)) ?? paths?.get(V2_PATH);
    const converted = doc ? this.convert(doc) : null;
    const typeName = converted?.types ? findTypeForGvk(converted.raw, apiVersion, kind) : undefined;
    if (!converted?.types || !converted.schema || typeName === undefined || !converted.schema.has(typeName)) return defaultSchemaResolver(apiVersion, kind, cluster);
    const digest = schemaDigest(typeClosure(converted.types, typeName));
    const builtin = builtinTypeName(apiVersion, kind);
    if (builtin === typeName && bundledChoice(builtin).digest === digest) return bundledChoice(builtin);
    return { type: converted.schema.type(typeName), source: 'cluster', typeName, digest };
  }

  private convert(doc: ClusterSchemaDocument): ConvertedDocument | null {
    let c = this.converted.get(doc.hash);
    if (!c) {
      // Not given and not converted before (it changed while the store read it): as if not stored.
      if (doc.document === null) return null;
      try {
        // Best effort: a definition the engine cannot read fully is converted as far as it can be.
        const types = safeSchemaFromOpenApi(doc.document).document;
        c = { raw: doc.document, types, schema: new Schema(types) };
      } catch {
        c = { raw: doc.document, types: null, schema: null };
      }
      this.converted.set(doc.hash, c);
    }
    return c;
  }
}

/** The OpenAPI v3 path of a group-version: `api/v1` for the core group, `apis/<group>/<version>` otherwise. */
function groupVersionPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `apis/${apiVersion}` : `api/${apiVersion}`;
}
