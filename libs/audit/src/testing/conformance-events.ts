// Test helper (imported by *.spec.ts only): a recorded conformance case as a stream of observed events.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConformanceCase } from '../../../ssa-engine/src/index.js';
import type { ObservedEvent } from '../observed-event.types.js';
import { evolveObjectOwnership, type ObjectOwnershipState } from '../object-ownership.projection.js';
import { DEDUCED_CHOICE, defaultSchemaResolver, type SchemaResolver } from '../schema-resolver.port.js';

export const CASES_DIR = path.resolve(process.cwd(), '../shared/conformance/cases');

/** Every case file name, without `.json`. */
export function caseNames(): string[] {
  return readdirSync(CASES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

export function loadCase(name: string): ConformanceCase {
  return JSON.parse(readFileSync(path.join(CASES_DIR, name + '.json'), 'utf8')) as ConformanceCase;
}

/** The resolver a case's objects are read with. */
export function caseResolver(c: ConformanceCase): SchemaResolver {
  return c.schema === 'deduced' ? () => DEDUCED_CHOICE : defaultSchemaResolver;
}

export interface CaseEvents {
  readonly c: ConformanceCase;
  readonly events: ObservedEvent[];
  /** The step index of each event. */
  readonly steps: number[];
  readonly resolver: SchemaResolver;
}

/**
 * One event per step with an expected object (seq = 10 × (step + 1) + `seqBase`, observedAt = the
 * step's time); failed steps (conflicts, errors) produce no event, as nothing was written.
 */
export function caseEvents(name: string, seqBase = 0): CaseEvents {
  const c = loadCase(name);
  const [apiVersion, kind] = c.kind.split(' ') as [string, string];
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const events: ObservedEvent[] = [];
  const steps: number[] = [];
  c.steps.forEach((s, i) => {
    const o = s.expect.object;
    if (!o) return;
    const meta = (o['metadata'] ?? {}) as { name?: string; namespace?: string };
    events.push({
      seq: String(seqBase + 10 * (i + 1)),
      cluster: 'test',
      uid: `uid-${name}`,
      objectId: `test:${name}`,
      group,
      version,
      kind,
      namespace: meta.namespace ?? null,
      name: meta.name ?? name,
      resourceVersion: String(i + 1),
      observedAt: s.time,
      watchType: events.length === 0 ? 'ADDED' : 'MODIFIED',
      source: 'watch',
      object: o,
    });
    steps.push(i);
  });
  return { c, events, steps, resolver: caseResolver(c) };
}

/** A hand-made event of ConfigMap `c:u` (seq 1, 2026-01-01), with `overrides`. */
export function testEvent(overrides: Partial<ObservedEvent>): ObservedEvent {
  return {
    seq: '1',
    cluster: 'c',
    uid: 'u',
    objectId: 'c:u',
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    namespace: 'd',
    name: 'x',
    resourceVersion: '1',
    observedAt: '2026-01-01T00:00:00Z',
    watchType: 'ADDED',
    source: 'watch',
    object: {},
    ...overrides,
  };
}

/** The states after every event of a case, folded one by one; `deleted`: and then the object deleted (one more state). */
export function caseStates(name: string, options: { deleted?: boolean } = {}): ObjectOwnershipState[] {
  const { events, resolver } = caseEvents(name);
  const out: ObjectOwnershipState[] = [];
  let state: ObjectOwnershipState | undefined;
  for (const e of events) out.push((state = evolveObjectOwnership(state, e, resolver).state));
  const last = events.at(-1);
  if (options.deleted && last) out.push(evolveObjectOwnership(state, { ...last, seq: '999999', watchType: 'DELETED' }, resolver).state);
  return out;
}
