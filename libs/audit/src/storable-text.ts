/**
 * Whether a name the projection keeps in a text column (a field path, a manager, an operation, a
 * subresource) can be kept there: U+0000 cannot. Kubernetes allows it in the keys of a custom
 * resource's free-form maps, and nothing stops a client from writing it into a managedFields entry;
 * any tenant able to write such an object would otherwise stop the projection for everyone. A
 * manager that is not storable is left out of the manager index (the states, versions and stored
 * transitions, JSON documents, keep it); a path that is not storable cannot be asked about.
 */
export const storableText = (s: string | null): boolean => s === null || !s.includes('\u0000');
