import { failed, notFound } from './plugin.error.js';

/** The error body every endpoint of the service answers with. */
interface ApiErrorBody {
  readonly code?: string;
  readonly message?: string;
}

export type QueryValue = string | undefined;

/** The ssa-audit REST API over HTTP (the plugin never imports the service's code). */
export class ServiceClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string | undefined,
    /** Why no token was sent, said when the service answers 401. */
    private readonly missingTokenReason?: string,
  ) {}

  get<T>(path: string, query: Readonly<Record<string, QueryValue>> = {}): Promise<T> {
    return this.send<T>('GET', path, query);
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.send<T>('POST', path, {}, body);
  }

  private async send<T>(method: string, path: string, query: Readonly<Record<string, QueryValue>>, body?: unknown): Promise<T> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers['authorization'] = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    } catch (e) {
      const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
      throw failed(`cannot reach the ssa-audit service at ${this.baseUrl}: ${cause}`);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw failed(`${method} ${url.pathname}: the service answered ${res.status} with something that is not JSON`);
    }
    if (res.ok) return parsed as T;
    throw errorOf(res.status, (parsed ?? {}) as ApiErrorBody, this.missingTokenReason);
  }
}

/** The service's error answer as a plugin error: unknown objects are "not found" (exit 3), the rest errors. */
export function errorOf(status: number, body: ApiErrorBody, missingTokenReason?: string) {
  const message = body.message ?? `HTTP ${status}`;
  if (status === 404 && body.code === 'object-not-found') return notFound(message);
  if (status === 401)
    return failed(
      `the ssa-audit service refused the request (${message}): it needs a bearer token the cluster accepts${missingTokenReason ? `, and ${missingTokenReason}` : ''}; ` +
        'pass one with --token or SSA_AUDIT_TOKEN, e.g. --token "$(kubectl create token <service account> -n <namespace>)"',
    );
  if (status === 403) return failed(`forbidden: ${message}`);
  return failed(body.code ? `${body.code}: ${message}` : message);
}
