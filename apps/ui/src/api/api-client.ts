import { ApiError } from './api-error';
import { readToken } from './token-store';

/** Listeners told when a call answers 401 (the app then shows the token prompt). */
const unauthorizedListeners = new Set<() => void>();

export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Headers of every call: the pasted token, if any (a proxy may add it instead). */
export function authHeaders(): Record<string, string> {
  const token = readToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** Turns a failed response into an ApiError (and tells the listeners about a 401). */
export async function failure(r: Response): Promise<ApiError> {
  let code = `http-${r.status}`;
  let message = r.statusText;
  try {
    const body = (await r.json()) as { code?: string; message?: string };
    code = body.code ?? code;
    message = body.message ?? message;
  } catch {
    // not JSON: keep the status line
  }
  if (r.status === 401) unauthorizedListeners.forEach((l) => l());
  return new ApiError(r.status, code, message);
}

/** A call to the ownership API (`/v1/…`, same origin). */
export async function apiCall<T>(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders() };
  if (init?.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(path, {
    method: init?.method ?? 'GET',
    headers,
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init?.signal,
  });
  if (!r.ok) throw await failure(r);
  return (await r.json()) as T;
}

/** A query string from the parameters that are set. */
export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
