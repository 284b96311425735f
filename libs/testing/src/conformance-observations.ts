import type { Observation } from '../../common/src/index.js';
import { caseEvents, loadCase } from '../../audit/src/testing/conformance-events.js';

export interface CaseObservations {
  /** One observation per step that wrote an object (failed steps write nothing), in order. */
  readonly observations: Observation[];
  /** The step index of each observation. */
  readonly steps: number[];
  readonly uid: string;
  readonly name: string;
}

/**
 * A recorded conformance case as what the watcher would have observed of one object: each
 * `expect.object` of a step, with a uid and a resourceVersion per step. `beforeStep` keeps only the
 * steps before that index (the state a later step was applied to).
 */
export function caseObservations(caseName: string, cluster: string, beforeStep = Infinity): CaseObservations {
  const { events, steps } = caseEvents(caseName);
  const uid = `uid-${cluster}-${caseName}`;
  const observations: Observation[] = [];
  const kept: number[] = [];
  events.forEach((e, i) => {
    if (steps[i]! >= beforeStep) return;
    const body = structuredClone(e.object) as Observation['object'];
    const object = { ...body, metadata: { ...body.metadata, uid, resourceVersion: String(steps[i]! + 1) } };
    observations.push({
      cluster,
      resource: { group: e.group, version: e.version, resource: `${e.kind.toLowerCase()}s`, kind: e.kind },
      type: observations.length === 0 ? 'ADDED' : 'MODIFIED',
      source: 'watch',
      observedAt: e.observedAt,
      object,
    });
    kept.push(steps[i]!);
  });
  return { observations, steps: kept, uid, name: events[0]?.name ?? caseName };
}

/** A step of a recorded case (its request and what the apiserver answered). */
export function caseStep(caseName: string, step: number): Record<string, unknown> & { expect: Record<string, unknown> } {
  return loadCase(caseName).steps[step] as unknown as Record<string, unknown> & { expect: Record<string, unknown> };
}
