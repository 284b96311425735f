import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeError, kubeErrorFromStatus, type StatusLike } from './kube.exception.js';

export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * A cluster connection: JSON requests and line-delimited watch streams over node:http(s), with the
 * TLS agent and credentials client-node derives from a kubeconfig context (or the in-cluster account).
 */
export class KubeClient {
  private constructor(
    /** The cluster name observations carry (the context name, or `in-cluster`). */
    readonly cluster: string,
    private readonly config: KubeConfig,
    readonly server: string,
  ) {}

  /** From kubeconfig text (YAML or JSON) and an optional context (default: its current context). */
  static fromKubeconfig(text: string, context?: string, cluster?: string): KubeClient {
    const kc = new KubeConfig();
    kc.loadFromString(text);
    return KubeClient.forContext(kc, context, cluster);
  }

  /** The service account of the pod this process runs in. */
  static inCluster(): KubeClient {
    const kc = new KubeConfig();
    kc.loadFromCluster();
    return KubeClient.forContext(kc, undefined, 'in-cluster');
  }

  /** @internal */
  static forContext(kc: KubeConfig, context: string | undefined, cluster?: string): KubeClient {
    if (context) {
      if (!kc.getContexts().some((c) => c.name === context)) throw new KubeError('CONFIG', `kubeconfig has no context "${context}"`);
      kc.setCurrentContext(context);
    }
    const current = kc.getCurrentCluster();
    const server = current?.server;
    if (!server) throw new KubeError('CONFIG', `kubeconfig context "${kc.getCurrentContext()}" has no cluster server`);
    if (server.startsWith('http:') && !current.skipTLSVerify) {
      // client-node refuses plain HTTP unless TLS verification is off; over plain HTTP there is none to skip.
      kc.loadFromOptions({
        clusters: kc.clusters.map((c) => (c.name === current.name ? { ...c, skipTLSVerify: true } : c)),
        users: kc.users,
        contexts: kc.contexts,
        currentContext: kc.currentContext,
      });
    }
    return new KubeClient(sanitizeClusterName(cluster ?? kc.getCurrentContext()), kc, server.replace(/\/+$/, ''));
  }

  /** GET (or another verb with a JSON body) and parse the JSON answer; non-2xx answers throw {@link KubeError}. */
  async json<T>(path: string, query: Query = {}, opts: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
    return (await this.jsonSized<T>(path, query, opts)).body;
  }

  /** As {@link json}, with the answer's size in bytes (a list page's, to size the next one). */
  async jsonSized<T>(path: string, query: Query = {}, opts: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<{ body: T; bytes: number }> {
    const res = await this.open(path, query, opts);
    const raw = await readAll(res);
    const text = raw.toString('utf8');
    if ((res.statusCode ?? 0) >= 300) throw httpError(res.statusCode ?? 0, text, `${opts.method ?? 'GET'} ${path}`);
    try {
      return { body: JSON.parse(text) as T, bytes: raw.length };
    } catch {
      throw new KubeError('INVALID_RESPONSE', `${path}: answer is not JSON`);
    }
  }

  /**
   * Opens a watch stream and hands each parsed line (and its length in UTF-16 code units, about its
   * bytes) to `onLine`, awaiting it (so a slow consumer pauses the socket). Resolves when the server
   * ends the stream; rejects on errors or `signal`. The stream is decoded as UTF-8 across chunks: a
   * character whose bytes arrive in two chunks stays one character.
   */
  async stream(path: string, query: Query, onLine: (line: unknown, size: number) => Promise<void> | void, signal: AbortSignal): Promise<void> {
    const res = await this.open(path, query, { signal });
    if ((res.statusCode ?? 0) >= 300) throw httpError(res.statusCode ?? 0, (await readAll(res)).toString('utf8'), `watch ${path}`);
    let rest = '';
    res.setEncoding('utf8');
    try {
      for await (const chunk of res) {
        rest += chunk as string;
        let nl: number;
        while ((nl = rest.indexOf('\n')) >= 0) {
          const line = rest.slice(0, nl).trim();
          rest = rest.slice(nl + 1);
          if (line === '') continue;
          let parsed: unknown;
          try {
            parsed = JSON.parse(line);
          } catch {
            throw new KubeError('INVALID_RESPONSE', `watch ${path}: a line is not JSON`);
          }
          await onLine(parsed, line.length);
        }
      }
    } catch (e) {
      res.destroy();
      if (e instanceof KubeError) throw e;
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new KubeError('NETWORK', 'aborted');
      throw new KubeError('NETWORK', `watch ${path}: ${(e as Error).message}`);
    }
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new KubeError('NETWORK', 'aborted');
  }

  private async open(path: string, query: Query, opts: { method?: string; body?: unknown; signal?: AbortSignal }): Promise<IncomingMessage> {
    const url = new URL(this.server + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    const options: RequestOptions = { headers: {} };
    await this.config.applyToHTTPSOptions(options as never);
    const body = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const headers: Record<string, string | string[] | number> = { ...(options.headers as Record<string, string | string[]>), Accept: 'application/json', 'User-Agent': 'ssa-audit-watcher' };
    if (body) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(url, { ...options, method: opts.method ?? 'GET', headers, ...(opts.signal ? { signal: opts.signal } : {}) }, resolve);
      req.on('error', (e) => reject(opts.signal?.aborted && opts.signal.reason instanceof Error ? opts.signal.reason : new KubeError('NETWORK', `${url.pathname}: ${e.message}`)));
      req.end(body);
    });
  }
}

/** Cluster names travel in observations: letters, digits, ".", "_" and "-" only. */
export function sanitizeClusterName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 253);
  return s === '' ? 'cluster' : s;
}

async function readAll(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const c of res) chunks.push(c as Buffer);
  } catch (e) {
    throw new KubeError('NETWORK', (e as Error).message);
  }
  return Buffer.concat(chunks);
}

function httpError(status: number, text: string, what: string): KubeError {
  let body: StatusLike | undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object') body = parsed as StatusLike;
  } catch {
    // not a Status object
  }
  return kubeErrorFromStatus(status, body, what, text.slice(0, 300));
}
