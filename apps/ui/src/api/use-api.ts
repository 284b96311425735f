import { useEffect, useState } from 'react';
import { apiCall } from './api-client';
import type { Page } from './api-types';

export interface ApiState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
}

/** Runs `load` (none when null) and again whenever one of `deps` changes; aborts the one it replaces. */
export function useLoaded<T>(load: ((signal: AbortSignal) => Promise<T>) | null, deps: readonly unknown[]): ApiState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (load === null) return undefined;
    const abort = new AbortController();
    setLoading(true);
    load(abort.signal).then(
      (d) => {
        setData(d);
        setError(undefined);
        setLoading(false);
      },
      (e: unknown) => {
        if (abort.signal.aborted) return;
        setError(e);
        setLoading(false);
      },
    );
    return () => abort.abort();
    // `load` is a new closure every render; what it reads is in `deps`.
  }, [...deps, load === null]);
  return { data, error, loading };
}

/** GETs `path` (none when null) and again whenever it or `refreshKey` changes. */
export function useApi<T>(path: string | null, refreshKey?: unknown): ApiState<T> {
  return useLoaded(path === null ? null : (signal) => apiCall<T>(path, { signal }), [path, refreshKey]);
}

/** Every item of a paged list, `nextCursor` after `nextCursor`, up to `maxItems` (`truncated` then says more exist). */
export interface AllPages<T> {
  items: T[];
  truncated: boolean;
}

async function allPages<T>(path: string, maxItems: number, signal: AbortSignal): Promise<AllPages<T>> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await apiCall<Page<T>>(`${path}${path.includes('?') ? '&' : '?'}${cursor ? `cursor=${encodeURIComponent(cursor)}` : ''}`, { signal });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null && items.length < maxItems);
  return { items, truncated: cursor !== null };
}

/** Like {@link useApi} for a paged list (`path` without `cursor`): follows its cursors to the end, or to `maxItems`. */
export function useAllPages<T>(path: string, refreshKey: unknown, maxItems: number): ApiState<AllPages<T>> {
  return useLoaded((signal) => allPages<T>(path, maxItems, signal), [path, refreshKey, maxItems]);
}
