import { useEffect, useState } from 'react';
import { query } from '../api/api-client';

// The state of every view is in the URL (shareable links): the path picks the view, the query
// string holds its filters, the `at=` moment and the open field.

export const BASE = '/ui';

export type Route =
  | { view: 'find'; params: URLSearchParams }
  | { view: 'object'; id: string; params: URLSearchParams }
  | { view: 'simulate'; params: URLSearchParams }
  | { view: 'findings'; params: URLSearchParams }
  | { view: 'managers'; params: URLSearchParams }
  | { view: 'not-found'; params: URLSearchParams };

/** The view a location shows. */
export function routeOf(pathname: string, search: string): Route {
  const params = new URLSearchParams(search);
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { view: 'find', params };
  if (parts[0] === 'objects' && parts.length === 2) return { view: 'object', id: parts[1]!, params };
  if (parts.length === 1 && (parts[0] === 'simulate' || parts[0] === 'findings' || parts[0] === 'managers')) return { view: parts[0], params };
  return { view: 'not-found', params };
}

/** A link inside the UI: `/ui/<path>?<set parameters>`. */
export function href(path: string, params: Record<string, string | null | undefined> = {}): string {
  return `${BASE}${path}${query(params)}`;
}

/** Goes to a UI link without a reload (`replace` for state changes that need no back step). */
export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** The current route, following navigation and the back button. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.pathname, location.search));
  useEffect(() => {
    const update = () => setRoute(routeOf(location.pathname, location.search));
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return route;
}

/** The current URL with some query parameters changed (null removes one). */
export function withParams(changes: Record<string, string | null>): string {
  const params = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') params.delete(k);
    else params.set(k, v);
  }
  const s = params.toString();
  return `${location.pathname}${s ? `?${s}` : ''}`;
}
