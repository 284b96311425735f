// The bearer token the user pasted, for this tab only (sessionStorage): with a proxy that adds the
// header (the kubectl plugin's `ui` command) there is none, and the calls go without it.
const KEY = 'ssa-audit.token';

export function readToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function saveToken(token: string | null): void {
  if (token && token.trim()) sessionStorage.setItem(KEY, token.trim());
  else sessionStorage.removeItem(KEY);
}
