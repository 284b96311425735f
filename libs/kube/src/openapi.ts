import type { KubeClient } from './kube-client.js';
import { KubeError } from './kube.exception.js';

/** The cluster's OpenAPI documents as plain data: v3 per group-version, or the single v2 document. */
export type OpenApiDocuments =
  | { readonly version: 'v3'; readonly documents: Readonly<Record<string, unknown>> }
  | { readonly version: 'v2'; readonly document: unknown };

interface V3Index {
  readonly paths?: Readonly<Record<string, { serverRelativeURL?: string }>>;
}

/**
 * Downloads the OpenAPI v3 document of every group-version (`/openapi/v3` lists them), or, when the
 * cluster has no v3 endpoint, the v2 document. `only` limits v3 to some group-version paths
 * (`apis/apps/v1`), to refresh what a CRD change touched. `signal` ends the download between and
 * during requests (a watcher stopping does not wait for the rest of the documents).
 */
export async function downloadOpenApi(client: KubeClient, opts: { only?: (path: string) => boolean; signal?: AbortSignal } = {}): Promise<OpenApiDocuments> {
  const { only, signal } = opts;
  let index: V3Index;
  try {
    index = await client.json<V3Index>('/openapi/v3', {}, { signal });
  } catch (e) {
    if (e instanceof KubeError && (e.status === 404 || e.status === 403)) return { version: 'v2', document: await client.json<unknown>('/openapi/v2', {}, { signal }) };
    throw e;
  }
  const documents: Record<string, unknown> = {};
  for (const [path, entry] of Object.entries(index.paths ?? {})) {
    if (only && !only(path)) continue;
    const url = entry.serverRelativeURL ?? `/openapi/v3/${path}`;
    const [p, q] = url.split('?') as [string, string | undefined];
    documents[path] = await client.json<unknown>(p, Object.fromEntries(new URLSearchParams(q ?? '')), { signal });
  }
  return { version: 'v3', documents };
}
