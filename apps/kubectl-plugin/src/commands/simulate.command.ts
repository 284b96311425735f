import { readFile } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';
import { renderStructured, type OutputFormat } from '../output-format.js';
import type { PluginSession } from '../plugin-session.js';
import { failed, usageError } from '../plugin.error.js';
import { kubectlObjectName } from '../resource-ref.js';
import type { SimulateAnswer } from '../service-api.types.js';
import { formatPrediction, kubectlApplyOutput } from '../simulate.format.js';

type Manifest = Record<string, unknown> & { apiVersion?: unknown; kind?: unknown; metadata?: Record<string, unknown> };

/** The documents of `-f FILE` (`-` is stdin), empty ones skipped, as kubectl reads them. */
async function readManifests(file: string, stdin: () => Promise<string>): Promise<Manifest[]> {
  const text = file === '-' ? await stdin() : await readFile(file, 'utf8').catch((e: Error) => {
    throw failed(`the path "${file}" cannot be read: ${e.message}`);
  });
  const docs = parseAllDocuments(text);
  const out: Manifest[] = [];
  // An empty stream is not an array of documents.
  for (const doc of Array.isArray(docs) ? docs : []) {
    if (doc.errors.length) throw failed(`error parsing ${file}: ${doc.errors[0]!.message}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value)) throw failed(`error parsing ${file}: a document is not an object`);
    out.push(value as Manifest);
  }
  if (out.length === 0) throw failed('no objects passed to apply');
  return out;
}

/**
 * `simulate -f FILE [--field-manager M] [--force-conflicts]`: `POST /v1/simulate/apply` for each
 * document, printed as `kubectl apply --server-side` would print it (same bytes, streams and exit
 * code), then, as `#` comments, what the apply would prune and what it would keep.
 */
export async function simulate(
  session: PluginSession,
  opts: { filename: string; fieldManager: string; forceConflicts: boolean; output: OutputFormat },
  stdin: () => Promise<string>,
): Promise<number> {
  const manifests = await readManifests(opts.filename, stdin);
  const { client } = await session.connection();
  const applies: { objectName: string; answer: SimulateAnswer }[] = [];
  for (const m of manifests) {
    const apiVersion = typeof m.apiVersion === 'string' ? m.apiVersion : '';
    const kind = typeof m.kind === 'string' ? m.kind : '';
    const name = typeof m.metadata?.['name'] === 'string' ? (m.metadata['name'] as string) : '';
    if (!apiVersion || !kind || !name) throw usageError(`every object in ${opts.filename} needs apiVersion, kind and metadata.name`);
    const [group, version] = apiVersion.includes('/') ? (apiVersion.split('/', 2) as [string, string]) : ['', apiVersion];
    const resource = (await session.resourceTypes()).find((r) => r.group === group && r.kind === kind);
    if (!resource) throw failed(`resource mapping not found for name: "${name}" namespace: "" from "${opts.filename}": no matches for kind "${kind}" in version "${apiVersion}"`);
    // kubectl fills in the namespace of a namespaced object from -n or the context.
    const namespace = resource.namespaced ? ((m.metadata?.['namespace'] as string | undefined) ?? session.namespace) : undefined;
    const manifest = namespace ? { ...m, metadata: { ...m.metadata, namespace } } : m;
    // --cluster, else the cluster that tracks the object, else the context's cluster as the service names it.
    const cluster = session.options.cluster ?? (await session.findObjects({ group, version, kind }, name, namespace))[0]?.cluster ?? session.context.client.cluster;
    const answer = await client.post<SimulateAnswer>('/v1/simulate/apply', { cluster, manager: opts.fieldManager, force: opts.forceConflicts, manifest });
    applies.push({ objectName: kubectlObjectName(resource, name), answer }); // kubectl goes on past a conflicting object
  }
  if (opts.output !== 'human') {
    session.env.write(renderStructured(opts.output, { items: applies.map((a) => ({ object: a.objectName, ...a.answer })) }));
    return applies.some((a) => a.answer.message !== null) ? 1 : 0;
  }
  const printed = kubectlApplyOutput(applies);
  session.env.write(printed.stdout + formatPrediction(applies, session.paint));
  if (printed.stderr) session.env.writeError(printed.stderr);
  return printed.code;
}
