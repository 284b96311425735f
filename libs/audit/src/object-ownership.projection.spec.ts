import { builtinTypeName } from '../../ssa-engine/src/index.js';
import { AuditError } from './audit.error.js';
import type { ObservedEvent } from './observed-event.types.js';
import { evolveObjectOwnership, foldObjectOwnership } from './object-ownership.projection.js';
import { caseEvents } from './testing/conformance-events.js';
import { bundledChoice } from './schema-resolver.port.js';

const HPA = { manager: 'horizontal-pod-autoscaler', operation: 'Update', apiVersion: 'apps/v1', subresource: 'scale' };

function summary(ts: readonly { type: string; path: string; manager: string | null }[]): string[] {
  return ts.map((t) => `${t.type} ${t.path} ${t.manager ?? '-'}`);
}

describe('evolveObjectOwnership', () => {
  it('incident-d: the HPA takes .spec.replicas; since = the scale event, other owners keep their since', () => {
    const { events } = caseEvents('incident-d-hpa-scale-subresource');
    const r1 = evolveObjectOwnership(undefined, events[0]!);
    expect(r1.applied).toBe(true);
    expect(r1.transitions.every((t) => t.type === 'acquired' && t.seq === '10' && t.at === '2024-01-01T00:00:01Z')).toBe(true);
    const r2 = evolveObjectOwnership(r1.state, events[1]!);
    expect(summary(r2.transitions)).toEqual(['taken .spec.replicas horizontal-pod-autoscaler']);
    const t = r2.transitions[0]!;
    expect(t).toMatchObject({ seq: '20', at: '2024-01-01T00:00:02Z', objectId: 'test:incident-d-hpa-scale-subresource', operation: 'Update', subresource: 'scale', apiVersion: 'apps/v1', reconstructed: false, valueChanged: true });
    expect(t.from).toEqual([{ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', subresource: '' }]);
    expect(t.owners).toEqual([HPA]);
    expect(r2.writer).toEqual(HPA);
    const replicas = r2.state.fields.find((f) => f.path === '.spec.replicas')!;
    expect(replicas.owners).toEqual([{ ...HPA, since: { seq: '20', at: '2024-01-01T00:00:02Z' }, sinceFirstObservation: false }]);
    const image = r2.state.fields.find((f) => f.path === '.spec.template.spec.containers[name="app"].image')!;
    expect(image.owners).toEqual([
      { manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', subresource: '', since: { seq: '10', at: '2024-01-01T00:00:01Z' }, sinceFirstObservation: true },
    ]);
    expect(r2.state.marks).toEqual([
      expect.objectContaining({ kind: 'taken-from-applier', path: '.spec.replicas', manager: HPA, seq: '20' }),
    ]);
  });

  it('is deterministic and idempotent: the same events give equal states; an old or repeated seq is a no-op', () => {
    const { events } = caseEvents('incident-a-pod-set-image');
    const a = foldObjectOwnership(events);
    expect(foldObjectOwnership([...events].reverse())).toEqual(a); // sorted by seq first
    const again = evolveObjectOwnership(a.state, events[1]!);
    expect(again).toMatchObject({ applied: false, transitions: [] });
    expect(again.state).toBe(a.state);
  });

  it('marks relist and gap-fill transitions as reconstructed; accepts bigint and number sequences', () => {
    const { events } = caseEvents('incident-a-pod-set-image');
    const s1 = evolveObjectOwnership(undefined, { ...events[0]!, seq: 1n }).state;
    const r = evolveObjectOwnership(s1, { ...events[1]!, seq: 2, source: 'relist' });
    expect(r.transitions.length).toBeGreaterThan(0);
    expect(r.transitions.every((t) => t.reconstructed && t.seq === '2')).toBe(true);
    expect(r.transitions.every((t) => !t.notes.includes('watch-gap'))).toBe(true); // an initial list is no gap
  });

  it('notes the discontinuity on transitions found by a gap-fill relist (changes and deletions)', () => {
    const { events } = caseEvents('incident-a-pod-set-image');
    const s1 = evolveObjectOwnership(undefined, { ...events[0]!, seq: 1 }).state;
    const changed = evolveObjectOwnership(s1, { ...events[1]!, seq: 2, source: 'gap-fill' });
    expect(changed.transitions.length).toBeGreaterThan(0);
    expect(changed.transitions.every((t) => t.reconstructed && t.notes.includes('watch-gap'))).toBe(true);
    const gone = evolveObjectOwnership(changed.state, { ...events[1]!, seq: 3, source: 'gap-fill', watchType: 'DELETED', resourceVersion: 'x' });
    expect(gone.transitions.length).toBeGreaterThan(0);
    expect(gone.transitions.every((t) => t.notes.join(',') === 'object-deleted,watch-gap')).toBe(true);
  });

  it('DELETED removes every owner', () => {
    const { events } = caseEvents('incident-c-shared-key-force');
    const { state } = foldObjectOwnership(events);
    const del: ObservedEvent = { ...events[events.length - 1]!, seq: '1000', watchType: 'DELETED', observedAt: '2024-01-02T00:00:00Z' };
    const r = evolveObjectOwnership(state, del);
    expect(r.state.deleted).toBe(true);
    expect(r.state.fields).toEqual([]);
    expect(r.transitions.map((t) => t.type)).toEqual(state!.fields.map(() => 'removed'));
    expect(r.transitions.map((t) => t.from)).toEqual(state!.fields.map((f) => f.owners.map(({ since: _s, sinceFirstObservation: _f, ...m }) => m)));
    expect(r.transitions.every((t) => t.owners.length === 0 && t.manager === null)).toBe(true);
  });

  it('refuses malformed events and events of another object with typed errors', () => {
    const { events } = caseEvents('incident-a-pod-set-image');
    const s = evolveObjectOwnership(undefined, events[0]!).state;
    const code = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (e) {
        return e instanceof AuditError ? `${e.code} ${e.parameter}` : 'other';
      }
      return undefined;
    };
    expect(code(() => evolveObjectOwnership(s, { ...events[1]!, objectId: 'x' }))).toBe('object-mismatch event.objectId');
    expect(code(() => evolveObjectOwnership(undefined, { ...events[0]!, seq: '-1' }))).toBe('invalid-event event.seq');
    expect(code(() => evolveObjectOwnership(undefined, { ...events[0]!, seq: 1.5 }))).toBe('invalid-event event.seq');
    expect(code(() => evolveObjectOwnership(undefined, { ...events[0]!, observedAt: 'yesterday' }))).toBe('invalid-event event.observedAt');
    expect(code(() => evolveObjectOwnership(undefined, { ...events[0]!, watchType: 'BOOKMARK' as 'ADDED' }))).toBe('invalid-event event.watchType');
  });

  it('skips an event whose managedFields the engine cannot read, records it, and goes on', () => {
    const { events } = caseEvents('incident-a-pod-set-image');
    const s1 = evolveObjectOwnership(undefined, events[0]!).state;
    const bad = { ...events[1]!, object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', managedFields: 'nope' } } };
    const r = evolveObjectOwnership(s1, bad);
    expect(r.applied).toBe(false);
    expect(r.state.lastError).toMatchObject({ seq: '20', code: 'invalid-managed-fields' });
    expect(r.state.fields).toBe(s1.fields);
    const r3 = evolveObjectOwnership(r.state, events[2]!);
    expect(r3.applied).toBe(true);
  });

  it('uses the schema resolver with apiVersion, kind and cluster', () => {
    const { events } = caseEvents('incident-d-hpa-scale-subresource');
    const calls: string[] = [];
    evolveObjectOwnership(undefined, events[0]!, (apiVersion, kind, cluster) => {
      calls.push(`${apiVersion} ${kind} ${cluster}`);
      return bundledChoice(builtinTypeName(apiVersion, kind)!);
    });
    expect(calls).toEqual(['apps/v1 Deployment test']);
  });
});
