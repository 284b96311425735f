import type { KubeObject } from '../../ssa-engine/src/index.js';
import { AuditError } from './audit.error.js';
import { MAX_MANIFEST_DEPTH, simulateApply } from './simulate-apply.use-case.js';
import { caseNames, caseResolver, loadCase } from './testing/conformance-events.js';

function sortedCauses(s: Record<string, unknown> | null | undefined): unknown {
  if (!s) return s;
  const d = s['details'] as { causes: unknown[] };
  return { ...s, details: { ...d, causes: d.causes.map((c) => JSON.stringify(c)).sort() } };
}

describe('simulateApply predicts every recorded apply of the conformance corpus', () => {
  it.each(caseNames())('%s', (name) => {
    const c = loadCase(name);
    const resolver = caseResolver(c);
    let live: KubeObject | undefined;
    c.steps.forEach((step, i) => {
      if (step.op === 'apply' && !step.subresource) {
        const run = () => simulateApply({ live, config: step.object, manager: step.manager, force: step.force ?? false, schema: resolver, now: step.time });
        const x = step.expect;
        if (x.object) expect({ i, object: run().result?.object }).toEqual({ i, object: x.object });
        else if (x.message !== undefined) {
          const r = run();
          expect({ i, message: r.message }).toEqual({ i, message: x.message });
          expect(r.result).toBeNull();
          if (x.status) expect(sortedCauses(r.status)).toEqual(sortedCauses(x.status));
          expect(r.conflicts.length).toBe(x.conflicts?.length ?? r.conflicts.length);
        } else if (x.error !== undefined) {
          expect(run).toThrow(AuditError);
        }
      }
      if (step.expect.object) live = step.expect.object;
    });
  });
});

describe('simulateApply: what the apply would do', () => {
  it('incident-d: re-applying replicas conflicts with the HPA with kubectl\'s exact message and the 409 body', () => {
    const c = loadCase('incident-d-hpa-scale-subresource');
    const r = simulateApply({ live: c.steps[1]!.expect.object, config: c.steps[2]!.object, manager: 'kubectl', force: false });
    expect(r.conflicts).toEqual([{ manager: 'horizontal-pod-autoscaler', operation: 'Update', apiVersion: 'apps/v1', subresource: 'scale', path: '.spec.replicas' }]);
    expect(r.message).toBe('Apply failed with 1 conflict: conflict with "horizontal-pod-autoscaler" with subresource "scale" using apps/v1: .spec.replicas');
    expect(r.status).toMatchObject({ kind: 'Status', code: 409, reason: 'Conflict', message: r.message });
    expect(r).toMatchObject({ pruned: [], survivors: [], result: null });
  });

  it('incident-b: flux applying without the label releases it; it survives, owned by the client-side apply entry', () => {
    const c = loadCase('incident-b-configmap-ghost-label');
    const r = simulateApply({ live: c.steps[1]!.expect.object, config: c.steps[2]!.object, manager: 'flux-controller', now: '2024-01-01T00:00:03Z' });
    expect(r.conflicts).toEqual([]);
    expect(r.message).toBeNull();
    expect(r.pruned).toEqual([]);
    expect(r.survivors).toEqual([
      { path: '.metadata.labels.team', owners: [{ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', subresource: '' }] },
    ]);
    expect(r.kept).toBe(r.survivors);
    expect(r.result!.object).toEqual(c.steps[2]!.expect.object);
    expect(r.result!.managedFields).toEqual((c.steps[2]!.expect.object!['metadata'] as { managedFields: unknown }).managedFields);
  });

  it('incident-d2: kubectl as sole owner drops replicas: it is pruned', () => {
    const c = loadCase('incident-d2-apply-drops-replicas-sole-owner');
    const r = simulateApply({ live: c.steps[0]!.expect.object, config: c.steps[1]!.object, manager: 'kubectl', now: c.steps[1]!.time });
    expect(r.pruned).toEqual(['.spec.replicas']);
    expect(r.survivors).toEqual([]);
  });

  it('refuses what the apiserver would refuse, as AuditError invalid-manifest', () => {
    const code = (f: () => unknown): unknown => {
      try {
        f();
        return undefined;
      } catch (e) {
        return e instanceof AuditError ? [e.code, e.parameter] : e;
      }
    };
    expect(code(() => simulateApply({ config: 'x', manager: 'm' }))).toEqual(['invalid-manifest', 'manifest']);
    expect(code(() => simulateApply({ config: { kind: 'ConfigMap' }, manager: 'm' }))).toEqual(['invalid-manifest', 'manifest']);
    expect(code(() => simulateApply({ config: { apiVersion: 'v1', kind: 'ConfigMap' }, manager: '' }))).toEqual(['invalid-manifest', 'manager']);
    const bad = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { a: 1 } };
    expect(code(() => simulateApply({ config: bad, manager: 'm' }))).toEqual(['invalid-manifest', 'manifest']);
  });

  it(`refuses a manifest nested deeper than ${MAX_MANIFEST_DEPTH} levels before the engine walks it`, () => {
    // The manifest is level 1; `spec` holds nested lists (each one level).
    const nested = (levels: number) => {
      let v: unknown = 'x';
      for (let i = 0; i < levels; i++) v = [v];
      return { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'a' }, spec: v };
    };
    const depthError = (config: unknown) => {
      try {
        simulateApply({ config, manager: 'm' });
        return undefined;
      } catch (e) {
        return e instanceof AuditError && e.message.includes('nested deeper') ? e.message : undefined;
      }
    };
    expect(depthError(nested(MAX_MANIFEST_DEPTH - 1))).toBeUndefined();
    expect(depthError(nested(MAX_MANIFEST_DEPTH))).toBe(`the manifest is nested deeper than ${MAX_MANIFEST_DEPTH} levels (objects and lists)`);
    expect(depthError(nested(200_000))).toBeDefined(); // checked without recursion: no stack overflow
  });

  it('creates when there is no live object', () => {
    const r = simulateApply({ config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'd' }, data: { k: 'v' } }, manager: 'me', now: '2026-01-01T00:00:00Z' });
    expect(r.result!.managedFields).toEqual([
      { manager: 'me', operation: 'Apply', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:k': {} } } },
    ]);
  });
});
