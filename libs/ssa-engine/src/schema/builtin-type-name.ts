/**
 * The schema type name of a group/version/kind by the built-in naming rule,
 * `io.k8s.api.<group's first DNS label, "core" for the core group>.<version>.<Kind>`, whether or
 * not the bundled schema has it.
 */
export function builtinTypeNameFor(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const label = group === '' ? 'core' : group.split('.')[0];
  return `io.k8s.api.${label}.${version}.${kind}`;
}
