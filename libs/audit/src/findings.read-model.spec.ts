import type { KubeObject } from '../../ssa-engine/src/index.js';
import { findings } from './findings.read-model.js';
import type { ObservedEvent } from './observed-event.types.js';
import { foldObjectOwnership } from './object-ownership.projection.js';
import { eventsUpTo } from './seq.util.js';
import { simulateApply } from './simulate-apply.use-case.js';
import { caseEvents, loadCase } from './testing/conformance-events.js';

function summary(fs: ReturnType<typeof findings>): string[] {
  return fs.map((f) => `${f.type} ${f.path} ${f.managers.map((m) => m.manager).join(',')}`);
}

describe('findings', () => {
  it('incident-d: replicas contested by the HPA; gone once the applier applies a change without replicas', () => {
    const { events } = caseEvents('incident-d-hpa-scale-subresource');
    const state = foldObjectOwnership(events).state!;
    const f = findings([state]);
    expect(summary(f)).toEqual(['replicas-contested .spec.replicas horizontal-pod-autoscaler,kubectl']);
    expect(f[0]).toMatchObject({ objectId: state.objectId, kind: 'Deployment', name: 'web', since: { seq: '20', at: '2024-01-01T00:00:02Z' } });
    expect(f[0]!.owners.map((o) => o.manager)).toEqual(['horizontal-pod-autoscaler']);

    // kubectl applies a new image without replicas: a later second (its entry's time moves), or
    // the same second as its last write (managedFields times are whole seconds: nothing in
    // managedFields moves, only the image it alone owns tells that kubectl applied).
    const c = loadCase('incident-d-hpa-scale-subresource');
    const config = JSON.parse(JSON.stringify(c.steps[3]!.object)) as { spec: { template: { spec: { containers: { image: string }[] } } } };
    config.spec.template.spec.containers[0]!.image = 'nginx:9.9';
    for (const now of ['2024-01-01T00:00:09Z', '2024-01-01T00:00:01Z']) {
      const sim = simulateApply({ live: state.object, config: config as unknown as KubeObject, manager: 'kubectl', now });
      const next: ObservedEvent = { ...events[events.length - 1]!, seq: '90', observedAt: now, object: sim.result!.object };
      const after = foldObjectOwnership([next], undefined, state).state!;
      expect(findings([after])).toEqual([]);
    }
  });

  it('incident-b: client-side-apply leftovers, including the released ghost label', () => {
    const { events } = caseEvents('incident-b-configmap-ghost-label');
    const s1 = foldObjectOwnership(eventsUpTo(events, 20)).state!;
    expect(summary(findings([s1]))).toEqual([
      'client-side-apply-leftover .data.LOG_LEVEL kubectl-client-side-apply,flux-controller',
      'client-side-apply-leftover .metadata.labels.app kubectl-client-side-apply,flux-controller',
      'client-side-apply-leftover .metadata.labels.team kubectl-client-side-apply,flux-controller',
    ]);
    const s2 = foldObjectOwnership(eventsUpTo(events, 30)).state!;
    const team = findings([s2]).find((f) => f.path === '.metadata.labels.team')!;
    expect(team).toMatchObject({ type: 'client-side-apply-leftover', since: { seq: '30', at: '2024-01-01T00:00:03Z' } });
    expect(findings([s2], { since: '2024-01-01T00:00:03Z' }).map((f) => f.path)).toEqual(['.metadata.labels.team']);
    expect(findings([s2], 25).map((f) => f.path)).toEqual(['.metadata.labels.team']);
    expect(findings([s2], { types: ['recently-forced'] })).toEqual([]);
  });

  it('incident-a: taken from the applier by kubectl set image, then forced back', () => {
    const { events } = caseEvents('incident-a-pod-set-image');
    const taken = foldObjectOwnership(eventsUpTo(events, 20)).state!;
    expect(summary(findings([taken]))).toEqual(['applier-will-conflict .spec.containers[name="nginx-container"].image kubectl-set,kubectl']);
    const forced = foldObjectOwnership(events).state!;
    expect(summary(findings([forced]))).toEqual(['recently-forced .spec.containers[name="nginx-container"].image kubectl,kubectl-set']);
    expect(findings([forced], '2024-01-01T00:00:05Z')).toEqual([]);
  });

  it('update-then-apply-takeover: fields co-owned by an Apply and an Update manager', () => {
    const { events } = caseEvents('update-then-apply-takeover');
    const s = foldObjectOwnership(eventsUpTo(events, 20)).state!;
    const f = findings([s], { types: ['apply-update-co-owned'] });
    expect(f.length).toBeGreaterThan(0);
    expect(f.every((x) => x.managers.some((m) => m.operation === 'Apply') && x.managers.some((m) => m.operation === 'Update'))).toBe(true);
    expect(f.map((x) => x.path)).toContain('.spec.replicas');
  });

  it('deleted objects have no findings', () => {
    const { events } = caseEvents('incident-d-hpa-scale-subresource');
    const state = foldObjectOwnership(events).state!;
    expect(findings([{ ...state, deleted: true }])).toEqual([]);
  });
});
