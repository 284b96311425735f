import { evolveObjectOwnership, type ObjectOwnershipState } from './object-ownership.projection.js';
import { decodeOwnedFields, decodeOwnershipState, encodeOwnedFields, encodeOwnershipState } from './owned-fields.codec.js';
import { caseEvents, caseNames } from './testing/conformance-events.js';

describe('owned fields codec', () => {
  it.each(caseNames())('%s: every state decodes to what was encoded, through JSON', (name) => {
    const { events, resolver } = caseEvents(name);
    let state: ObjectOwnershipState | undefined;
    for (const e of events) {
      state = evolveObjectOwnership(state, e, resolver).state;
      const stored = JSON.parse(JSON.stringify(encodeOwnershipState(state)));
      expect(stored).not.toHaveProperty('schema');
      expect(decodeOwnershipState(stored, JSON.parse(JSON.stringify(state.schema)))).toEqual(JSON.parse(JSON.stringify(state)));
    }
  });

  it('stores each distinct owner once and is less than half the plain fields', () => {
    const { events, resolver } = caseEvents('incident-d-hpa-scale-subresource');
    let state: ObjectOwnershipState | undefined;
    for (const e of events) state = evolveObjectOwnership(state, e, resolver).state;
    const encoded = encodeOwnedFields(state!.fields);
    const distinct = new Set(state!.fields.flatMap((f) => f.owners.map((o) => JSON.stringify(o))));
    expect(encoded.owners).toHaveLength(distinct.size);
    expect(JSON.stringify(encoded).length * 2).toBeLessThan(JSON.stringify(state!.fields).length);
    expect(decodeOwnedFields({ owners: [], fields: [] })).toEqual([]);
  });

  it('keeps segments holding a dot apart from the segments around them', () => {
    const owner = { manager: 'm', operation: 'Apply' as const, apiVersion: 'v1', subresource: '', since: { seq: '1', at: '2026-01-01T00:00:00Z' }, sinceFirstObservation: false };
    const fields = [
      { path: '.metadata.labels.a.b', fieldsV1Path: 'f:metadata.f:labels.f:a.b', segments: ['f:metadata', 'f:labels', 'f:a.b'], owners: [owner] },
      { path: '.metadata.labels.a', fieldsV1Path: 'f:metadata.f:labels.f:a', segments: ['f:metadata', 'f:labels', 'f:a'], owners: [owner] },
    ];
    expect(decodeOwnedFields(JSON.parse(JSON.stringify(encodeOwnedFields(fields))))).toEqual(fields);
  });
});
