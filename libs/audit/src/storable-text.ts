/**
 * What Postgres `text` cannot hold: U+0000, and a lone surrogate (which `json_to_recordset` refuses
 * to decode; a real API server never sends one, Go's JSON decoder makes it U+FFFD, but any client of
 * this service's sandbox can).
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Whether a name the projection keeps in a text column (a field path, a manager, an operation, a
 * subresource) can be kept there: not where it holds U+0000 or a lone surrogate. Kubernetes allows
 * U+0000 in the keys of a custom resource's free-form maps, and nothing stops a client from writing
 * either into a managedFields entry; any tenant able to write such an object would otherwise stop the
 * projection for everyone. A manager that is not storable is left out of the manager index (the
 * states, versions and stored transitions, JSON documents, keep it); a path that is not storable
 * cannot be asked about.
 */
export const storableText = (s: string | null): boolean => s === null || s.search(UNSTORABLE) < 0;

/** A text column's stand-in for `s`: U+FFFD in place of each character `text` cannot hold (`s` itself where it can). */
export const storableStandIn = <T extends string | null>(s: T): T => (s === null ? s : (s.replace(UNSTORABLE, '\uFFFD') as T));
