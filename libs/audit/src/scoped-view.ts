import type { AccessScope } from './access-review.port.js';

/**
 * What an aggregate (managers, findings, manager fields) counts for a caller who may see some of the
 * tracked scopes: the objects of `allowed`. With `fromTotals` it counts them as every object's
 * totals less the objects of the scopes it may not see (as tracked when it counts, so a scope first
 * tracked since is taken away too), which reads only the hidden objects: chosen where the caller
 * sees more scopes than it does not. Else it counts the allowed scopes' objects one by one.
 */
export interface ScopedView {
  readonly allowed: readonly AccessScope[];
  readonly fromTotals: boolean;
}

/** The view of a caller allowed `allowed[k]` of each of the tracked `scopes[k]`. */
export function scopedView(scopes: readonly AccessScope[], allowed: readonly boolean[]): ScopedView {
  if (allowed.length !== scopes.length) throw new Error(`scopedView: ${allowed.length} answers for ${scopes.length} scopes`);
  const seen = scopes.filter((_, k) => allowed[k]);
  return { allowed: seen, fromTotals: seen.length > scopes.length - seen.length };
}
