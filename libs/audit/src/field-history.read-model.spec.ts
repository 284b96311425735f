import type { ObservedEvent } from './observed-event.types.js';
import { fieldHistory, objectTransitions } from './field-history.read-model.js';
import { eventsUpTo } from './seq.util.js';
import { caseEvents } from './testing/conformance-events.js';

const IMAGE = '.spec.containers[name="nginx-container"].image';

describe('fieldHistory', () => {
  it('incident-a: the image is acquired by kubectl, taken by kubectl-set, forced back by kubectl; values 1.14.2 → 1.16.1 → 1.14.2', () => {
    const { events } = caseEvents('incident-a-pod-set-image');
    const h = fieldHistory(events, IMAGE);
    expect(h.path).toBe(IMAGE);
    expect(h.fieldsV1Path).toBe('f:spec.f:containers.k:{"name":"nginx-container"}.f:image');
    expect(h.transitions.map((t) => `${t.type} ${t.manager}/${t.operation}`)).toEqual(['acquired kubectl/Apply', 'taken kubectl-set/Update', 'forced kubectl/Apply']);
    expect(h.transitions[1]!.owners).toEqual([{ manager: 'kubectl-set', operation: 'Update', apiVersion: 'v1', subresource: '' }]);
    expect(h.transitions.map((t) => t.seq)).toEqual(['10', '20', '40']);
    expect(h.values.map((v) => [v.seq, String(v.value).replace(/^.*:/, '')])).toEqual([
      ['10', '1.14.2'],
      ['20', '1.16.1'],
      ['40', '1.14.2'],
    ]);
  });

  it('as of a moment: only what happened up to it', () => {
    const { events } = caseEvents('incident-a-pod-set-image');
    const h = fieldHistory(eventsUpTo(events, '2024-01-01T00:00:02Z'), IMAGE);
    expect(h.transitions.map((t) => t.type)).toEqual(['acquired', 'taken']);
  });

  it('incident-b: the label is present until the client-side apply removes it (value null, present false)', () => {
    const { events } = caseEvents('incident-b-configmap-ghost-label');
    const h = fieldHistory(events, '.metadata.labels.team');
    expect(h.transitions.map((t) => `${t.type} ${t.manager}`)).toEqual([
      'acquired kubectl-client-side-apply',
      'shared flux-controller',
      'kept flux-controller',
      'removed kubectl-client-side-apply',
    ]);
    expect(h.values.map((v) => [v.present, v.value])).toEqual([
      [true, 'payments'],
      [false, null],
    ]);
  });

  it('no events: an empty history', () => {
    expect(fieldHistory([], '.spec.replicas')).toEqual({ path: '.spec.replicas', fieldsV1Path: 'f:spec.f:replicas', transitions: [], values: [], schema: { source: 'deduced', typeName: null, digest: 'deduced' } });
  });

  it('a DELETED event removes the value', () => {
    const { events } = caseEvents('incident-c-shared-key-force');
    const del: ObservedEvent = { ...events[events.length - 1]!, seq: '999', watchType: 'DELETED' };
    const h = fieldHistory([...events, del], '.data.a-only');
    expect(h.transitions.at(-1)).toMatchObject({ type: 'removed', seq: '999', manager: null, owners: [] });
    expect(h.values.at(-1)).toMatchObject({ seq: '999', present: false, value: null });
  });
});

describe('objectTransitions', () => {
  it('every transition, newest event first, and within an event the last first', () => {
    const { events } = caseEvents('incident-a-pod-set-image');
    const placed = objectTransitions(events);
    const ts = placed.map((p) => p.transition);
    expect(ts[0]).toMatchObject({ type: 'forced', seq: '40', manager: 'kubectl' });
    expect(ts.at(-1)!.seq).toBe('10');
    // The first observation's acquired transitions are there, numbered from 0 in their event.
    expect(placed.filter((p) => p.transition.seq === '10').map((p) => p.ordinal).reverse()).toEqual([...Array(ts.filter((t) => t.seq === '10').length).keys()]);
    expect(ts.filter((t) => t.seq === '10').every((t) => t.type === 'acquired')).toBe(true);
    for (let i = 1; i < placed.length; i++) {
      const [a, b] = [placed[i - 1]!, placed[i]!];
      expect(BigInt(a.transition.seq) > BigInt(b.transition.seq) || (a.transition.seq === b.transition.seq && a.ordinal === b.ordinal + 1)).toBe(true);
    }
  });
});
