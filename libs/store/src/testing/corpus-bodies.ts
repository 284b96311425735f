import { apiVersionOf, evolveObjectOwnership, resolvePath, type ObjectOwnershipState } from '../../../audit/src/index.js';
import { caseEvents } from '../../../audit/src/testing/conformance-events.js';
import type { Path } from '../../../ssa-engine/src/index.js';
import type { Body } from '../ingest/body.util.js';

/**
 * A recorded case's bodies as the appender stores them (without `metadata.managedFields` and
 * `metadata.resourceVersion`), and every path owned at some time in it with every path above it
 * (keyed by their text).
 */
export function caseBodiesAndPaths(name: string): { bodies: Body[]; paths: Map<string, Path> } {
  const { events, resolver } = caseEvents(name);
  const bodies = events.map((e) => {
    const { managedFields: _m, resourceVersion: _r, ...metadata } = (e.object as { metadata: Record<string, unknown> }).metadata;
    return { ...(e.object as Body), metadata };
  });
  let state: ObjectOwnershipState | undefined;
  const paths = new Map<string, Path>();
  for (const e of events) {
    state = evolveObjectOwnership(state, e, resolver).state;
    const type = resolver(apiVersionOf(e.group, e.version), e.kind, e.cluster).type;
    for (const f of state.fields) {
      if (paths.has(f.fieldsV1Path)) continue;
      const { elements } = resolvePath(f.fieldsV1Path, type);
      for (let n = 1; n <= elements.length; n++) paths.set(elements.slice(0, n).map((pe) => pe.str).join('.'), elements.slice(0, n));
    }
  }
  return { bodies, paths };
}
