import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConformanceCase } from '../conformance/conformance-case.js';
import { explain } from './explain.js';
import type { Snapshot } from './snapshot.js';
import { cm, CONFIGMAP, deploy, T1, T2 } from './test-fixtures.js';

const CSA = 'kubectl-client-side-apply';

function ghostLabel(): Snapshot[] {
  const file = path.resolve(process.cwd(), '../shared/conformance/cases/incident-b-configmap-ghost-label.json');
  const c = JSON.parse(readFileSync(file, 'utf8')) as ConformanceCase;
  return c.steps.map((s) => ({ object: s.expect.object!, type: CONFIGMAP }));
}

describe('explain: cause codes', () => {
  it('client-side-apply-leftover (incident-b): flux released the label, the CSA entry keeps it; remedies are concrete', () => {
    const [, s1, s2] = ghostLabel();
    const e = explain(s1, s2!, '.metadata.labels.team');
    expect(e.cause).toBe('client-side-apply-leftover');
    expect(e.present).toBe(true);
    expect(e.releasedBy).toEqual({ manager: 'flux-controller', operation: 'Apply', apiVersion: 'v1', subresource: '' });
    expect(e.remainingOwners.map((o) => [o.manager, o.operation, o.time, o.index])).toEqual([[CSA, 'Update', T1, 1]]);
    const kinds = e.remedies.map((r) => r.kind);
    // What really deletes the label first; removing the entry (which deletes nothing) after.
    expect(kinds.slice(0, 3)).toEqual(['csa-migration', 'delete-field', 'remove-managed-fields-entry']);
    expect(e.remedies[0]!.commands).toEqual(['kubectl apply --server-side -n default -f <manifest without .metadata.labels.team>']);
    const del = e.remedies[1]!;
    expect(del.commands).toEqual(['kubectl label configmap/app-config -n default team-']);
    expect(del.description).toBe(
      "delete .metadata.labels.team with a non-apply write: it is removed from the object and from every owner's fields (owners now: kubectl-client-side-apply (Update))",
    );
    const rm = e.remedies.find((r) => r.kind === 'remove-managed-fields-entry')!;
    // flux already released the label: nobody owns it afterwards, and no apply prunes what its applier did not own.
    expect(rm.description).toBe(
      'remove the Update entry of kubectl-client-side-apply (managedFields[1]) with a non-apply write: kubectl-client-side-apply stops owning every field of that entry and no value changes; ' +
        '.metadata.labels.team stays in the object, owned by nobody; no apply prunes it (an apply prunes only fields its applier owned before), so to delete it, delete it explicitly (delete-field)',
    );
    expect(rm.description).not.toMatch(/next apply can prune/);
    expect(rm.patch).toEqual([
      { op: 'test', path: '/metadata/managedFields/1/manager', value: CSA },
      { op: 'test', path: '/metadata/managedFields/1/operation', value: 'Update' },
      { op: 'test', path: '/metadata/managedFields/1/apiVersion', value: 'v1' },
      { op: 'remove', path: '/metadata/managedFields/1' },
    ]);
    expect(rm.commands[0]).toBe(`kubectl patch configmap/app-config -n default --type=json -p '${JSON.stringify(rm.patch)}'`);
    expect(kinds).toEqual(expect.arrayContaining(['force-then-drop', 'force-apply', 'co-own-current-value', 'reset-managed-fields']));
    // Forcing the current value only shares it: the first step must change the value.
    expect(e.remedies.find((r) => r.kind === 'force-then-drop')!.commands).toEqual([
      'kubectl apply --server-side --force-conflicts --field-manager=flux-controller -n default -f <manifest with a new value of .metadata.labels.team>',
      'kubectl apply --server-side --field-manager=flux-controller -n default -f <manifest without .metadata.labels.team>',
    ]);
  });

  it('removed (incident-b): the client-side apply deleted the label', () => {
    const [, s1, s2, s3] = ghostLabel();
    const e = explain([s1!, s2!], s3!, 'f:metadata.f:labels.f:team');
    expect(e.cause).toBe('removed');
    expect(e.present).toBe(false);
    expect(e.releasedBy?.manager).toBe(CSA);
  });

  it('update-manager-never-releases', () => {
    const u: ['u', 'Update', string, object] = ['u', 'Update', T1, { 'f:data': { '.': {}, 'f:a': {} } }];
    const e = explain(cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {}, 'f:b': {} } }], u]), cm({ a: '1' }, [['x', 'Apply', T2, { 'f:data': { 'f:b': {} } }], u]), '.data.a');
    expect(e.cause).toBe('update-manager-never-releases');
    expect(e.releasedBy?.manager).toBe('x');
    expect(e.remedies.map((r) => r.kind).slice(0, 2)).toEqual(['delete-field', 'remove-managed-fields-entry']);
    expect(e.remedies[0]!.patch).toEqual([{ op: 'remove', path: '/data/a' }]);
    expect(e.remedies[0]!.commands).toEqual([`kubectl patch configmap/app -n prod --type=json -p '[{"op":"remove","path":"/data/a"}]'`]);
    expect(e.remedies[1]!.patch![3]).toEqual({ op: 'remove', path: '/metadata/managedFields/1' });
    expect(e.remedies[1]!.warning).toMatch(/different identity/);
    expect(e.remedies[1]!.description).toMatch(/\.data\.a stays in the object, owned by nobody; no apply prunes it/);
  });

  it('co-owned-after-release: remedy is to apply without it as the remaining Apply manager', () => {
    const y: ['y', 'Apply', string, object] = ['y', 'Apply', T1, { 'f:data': { 'f:a': {} } }];
    const e = explain(cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {}, 'f:b': {} } }], y]), cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:b': {} } }], y]), '.data.a');
    expect(e.cause).toBe('co-owned-after-release');
    expect(e.remedies[0]).toMatchObject({ kind: 'apply-without-field', commands: ['kubectl apply --server-side --field-manager=y -n prod -f <manifest without .data.a>'] });
    expect(e.remedies.some((r) => r.kind === 'reset-managed-fields')).toBe(false);
  });

  it('atomic-parent: a key inside an atomic selector is owned through its parent', () => {
    const spec = { selector: { matchLabels: { app: 'web' } } };
    const e = explain(undefined, deploy(spec, [['a', 'Apply', T1, { 'f:spec': { 'f:selector': {} } }]]), '.spec.selector.matchLabels.app');
    expect(e.cause).toBe('atomic-parent');
    expect(e.remainingOwners).toMatchObject([{ manager: 'a', via: 'atomic-ancestor' }]);
    expect(e.remedies[0]!.commands[0]).toContain('<manifest without .spec.selector>');
  });

  it('owned: present and owned, nothing released', () => {
    const e = explain(undefined, cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }]]), '.data.a');
    expect(e.cause).toBe('owned');
    expect(e.releasedBy).toBeNull();
  });

  it('orphan: present, owned by nobody', () => {
    const e = explain(undefined, cm({ a: '1', d: 'defaulted' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }]]), '.data.d');
    expect(e.cause).toBe('orphan');
    expect(e.remainingOwners).toEqual([]);
    expect(e.remedies.map((r) => r.kind)).toEqual(['delete-field', 'force-then-drop']);
    expect(e.remedies[0]!.warning).toMatch(/default or is added by admission/);
    // Nobody owns it: applying the current value makes the applier its sole owner.
    expect(e.remedies[1]!.commands[0]).toContain('-f <manifest with .data.d>');
  });

  it('pruned', () => {
    const e = explain(cm({ a: '1', b: '2' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {}, 'f:b': {} } }]]), cm({ a: '1' }, [['x', 'Apply', T2, { 'f:data': { 'f:a': {} } }]]), '.data.b');
    expect(e.cause).toBe('pruned');
    expect(e.releasedBy?.manager).toBe('x');
    expect(e.remedies).toEqual([]);
  });

  it('never-applied, and unknown without history or tracking', () => {
    const s = cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }]]);
    expect(explain(s, s, '.data.zzz').cause).toBe('never-applied');
    expect(explain(undefined, s, '.data.zzz')).toMatchObject({ cause: 'unknown', unknownReason: 'no-history' });
    expect(explain(undefined, cm({ a: '1' }, []), '.data.a')).toMatchObject({ cause: 'unknown', unknownReason: 'untracked-object' });
  });

  it('the only entry is never removed (empty list = reset)', () => {
    const e = explain(undefined, cm({ a: '1' }, [['u', 'Update', T1, { 'f:data': { 'f:a': {} } }]]), '.data.a');
    const rm = e.remedies.find((r) => r.kind === 'remove-managed-fields-entry')!;
    expect(rm.patch).toBeNull();
    expect(rm.warning).toMatch(/reset/);
  });

  it('results are plain JSON data', () => {
    const [, s1, s2] = ghostLabel();
    const e = explain(s1, s2!, '.metadata.labels.team');
    expect(JSON.parse(JSON.stringify(e))).toEqual(e);
  });
});
