import { FindingsTimeline, type FindingsVersion } from './findings.changes.js';
import { fieldFindings } from './findings.read-model.js';
import type { ObjectOwnershipState } from './object-ownership.projection.js';
import { compareSeq } from './seq.util.js';
import { caseNames, caseStates } from './testing/conformance-events.js';

/** The versions of the states, stepped as batches cut after `cuts` (each batch a timeline of its own, as the projection runs them). */
function versionsOf(states: readonly ObjectOwnershipState[], cuts: ReadonlySet<number> = new Set()): FindingsVersion[] {
  const out: FindingsVersion[] = [];
  let timeline = new FindingsTimeline();
  states.forEach((s, i) => {
    timeline.step(states[i - 1], s);
    if (cuts.has(i)) {
      out.push(...timeline.versions);
      timeline = new FindingsTimeline();
    }
  });
  return [...out, ...timeline.versions];
}

/** The findings in force as of `seq`: the last version at or before it (none before the first). */
const inForce = (versions: readonly FindingsVersion[], seq: string) => versions.filter((v) => compareSeq(v.seq, seq) <= 0).at(-1)?.findings ?? [];

describe('FindingsTimeline', () => {
  it.each(caseNames())('%s: the version in force after every event holds the findings of the state then', (name) => {
    const states = caseStates(name);
    const versions = versionsOf(states);
    for (const s of states) expect(inForce(versions, s.lastSeq)).toEqual(fieldFindings(s));
    // A version only where the findings change.
    versions.forEach((v, i) => expect(v.findings).not.toEqual(i === 0 ? [] : versions[i - 1]!.findings));
  });

  it.each(caseNames())('%s: cut into batches anywhere, the versions are the same', (name) => {
    const states = caseStates(name);
    const whole = versionsOf(states);
    for (let cut = 0; cut < states.length - 1; cut++) expect(versionsOf(states, new Set([cut]))).toEqual(whole);
  });

  it('the recorded cases have findings that come and go', () => {
    const versions = caseNames().flatMap((n) => versionsOf(caseStates(n)));
    expect(versions.filter((v) => v.findings.length > 0).length).toBeGreaterThan(0);
    expect(versions.filter((v) => v.findings.length === 0).length).toBeGreaterThan(0);
  });

  it('changes(): each object whose findings changed, with its findings after the batch', () => {
    const name = caseNames().find((n) => versionsOf(caseStates(n)).length > 0)!;
    const states = caseStates(name);
    const timeline = new FindingsTimeline();
    states.forEach((s, i) => timeline.step(states[i - 1], s));
    const last = states.at(-1)!;
    expect(timeline.changes()).toEqual([{ objectId: last.objectId, cluster: last.cluster, findings: fieldFindings(last) }]);
  });
});
