import { decodeManagedFields, explain, parsePath } from '../../ssa-engine/src/index.js';
import type { ObservedEvent } from './observed-event.types.js';
import { explainField } from './explain-field.read-model.js';
import { eventsUpTo } from './seq.util.js';
import { caseEvents, caseNames } from './testing/conformance-events.js';

const CSA = { manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', subresource: '' };

describe('explainField', () => {
  const { events } = caseEvents('incident-b-configmap-ghost-label');

  it('incident-b (ghost label): flux released it at 00:00:03, the client-side apply entry still owns it', () => {
    const x = explainField(eventsUpTo(events, '2024-01-01T00:00:03Z'), '.metadata.labels.team');
    expect(x).toMatchObject({ path: '.metadata.labels.team', fieldsV1Path: 'f:metadata.f:labels.f:team', present: true, objectDeleted: false });
    expect(x.cause).toBe('client-side-apply-leftover');
    expect(x.causes).toEqual(['client-side-apply-leftover', 'co-owned-after-release']);
    expect(x.releasedBy).toEqual({ manager: 'flux-controller', operation: 'Apply', apiVersion: 'v1', subresource: '', at: '2024-01-01T00:00:03Z', seq: '30' });
    expect(x.remainingOwners).toEqual([{ ...CSA, since: { seq: '10', at: '2024-01-01T00:00:01Z' }, via: 'self', index: 1 }]);
    const rm = x.remedies.find((r) => r.kind === 'remove-managed-fields-entry')!;
    expect(rm.command).toBe(`kubectl patch configmap/app-config -n default --type=json -p '${JSON.stringify(rm.patch)}'`);
    expect(x.remedies.map((r) => r.kind).slice(0, 3)).toEqual(['csa-migration', 'delete-field', 'remove-managed-fields-entry']);
    // The summary says what the patch does: the label stays, owned by nobody, and flux (which released it) never prunes it.
    expect(rm.summary).toMatch(/no value changes; \.metadata\.labels\.team stays in the object, owned by nobody; no apply prunes it/);
    expect(x.remedies[1]).toMatchObject({ summary: expect.stringMatching(/^delete \.metadata\.labels\.team with a non-apply write/), command: 'kubectl label configmap/app-config -n default team-', patch: null });
    const two = x.remedies.find((r) => r.kind === 'force-then-drop')!;
    expect(two.command).toBe(two.commands.join('\n'));
    expect(two.commands).toHaveLength(2);
    expect(JSON.parse(JSON.stringify(x))).toEqual(x);
  });

  it('incident-b: after the client-side apply deletes it: removed, released by that manager', () => {
    const x = explainField(events, 'f:metadata.f:labels.f:team');
    expect(x).toMatchObject({ present: false, cause: 'removed', remainingOwners: [], remedies: [] });
    expect(x.releasedBy).toMatchObject({ manager: 'kubectl-client-side-apply', at: '2024-01-01T00:00:04Z' });
  });

  it('owned fields, never-applied fields, and no history', () => {
    expect(explainField(events, '.metadata.labels.app')).toMatchObject({ cause: 'owned', releasedBy: null });
    expect(explainField(events, '.data.nothing').cause).toBe('never-applied');
    expect(explainField(events.slice(0, 1), '.data.nothing')).toMatchObject({ cause: 'unknown', unknownReason: 'no-history' });
    expect(explainField([], '.data.x')).toMatchObject({ cause: 'unknown', present: false });
  });

  it('incident-d2: replicas dropped by its sole owner is pruned', () => {
    const d2 = caseEvents('incident-d2-apply-drops-replicas-sole-owner');
    const x = explainField(d2.events, '.spec.replicas');
    expect(x).toMatchObject({ present: false, cause: 'pruned' });
    expect(x.releasedBy).toMatchObject({ manager: 'kubectl', operation: 'Apply', seq: '20' });
  });

  it('a deleted object: removed', () => {
    const del: ObservedEvent = { ...events[events.length - 1]!, seq: '999', watchType: 'DELETED' };
    expect(explainField([...events, del], '.metadata.labels.app')).toMatchObject({ present: false, cause: 'removed', objectDeleted: true });
  });
});

describe('explainField over the whole corpus agrees with the engine given the full history', () => {
  it.each(caseNames())('%s', (name) => {
    const { events, resolver } = caseEvents(name);
    if (events.length === 0) return;
    const snaps = events.map((e) => ({ object: e.object, type: resolver(e.group ? `${e.group}/${e.version}` : e.version, e.kind, e.cluster).type }));
    const paths = new Set<string>();
    for (const s of snaps) {
      const mf = (s.object as { metadata?: { managedFields?: unknown } }).metadata?.managedFields;
      for (const e of decodeManagedFields(mf).values()) for (const p of e.set.paths()) paths.add(p.map((pe) => pe.str).join('.'));
    }
    for (const path of paths) {
      const full = explain(snaps.slice(0, -1), snaps[snaps.length - 1]!, parsePath(path));
      const x = explainField(events, path, resolver);
      expect({ path, cause: x.cause, message: x.message, releasedBy: x.releasedBy?.manager ?? null, remedies: x.remedies.map((r) => r.commands) }).toEqual({
        path,
        cause: full.cause,
        message: full.message,
        releasedBy: full.releasedBy?.manager ?? null,
        remedies: full.remedies.map((r) => r.commands),
      });
    }
  });
});
