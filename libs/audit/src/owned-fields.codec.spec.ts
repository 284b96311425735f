import { evolveObjectOwnership, type ObjectOwnershipState } from './object-ownership.projection.js';
import { decodeOwnedFields, decodeOwnershipState, encodeOwnedFields, encodeOwnershipState } from './owned-fields.codec.js';
import { caseEvents, caseNames } from './testing/conformance-events.js';
import type { FieldOwner } from './observed-event.types.js';

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

  it('decodes byte for byte what the fold built: the same JSON text, key order included', () => {
    for (const name of caseNames()) {
      const { events, resolver } = caseEvents(name);
      let state: ObjectOwnershipState | undefined;
      for (const e of events) {
        state = evolveObjectOwnership(state, e, resolver).state;
        const decoded = decodeOwnedFields(JSON.parse(JSON.stringify(encodeOwnedFields(state.fields))));
        expect(JSON.stringify(decoded)).toBe(JSON.stringify(state.fields));
      }
    }
  });

  it('writes owners as arrays and paths front-coded; an owner of another shape stays an object', () => {
    const since = { seq: '7', at: '2026-01-01T00:00:00Z' };
    const a = { manager: 'a', operation: 'Apply' as const, apiVersion: 'v1', subresource: '', since, sinceFirstObservation: true };
    const odd = { manager: 'b', operation: 'Update' as const, apiVersion: 'v1', subresource: 'status', since, sinceFirstObservation: false, extra: 1 };
    const field = (segments: string[], owners: FieldOwner[]) => ({ path: '', fieldsV1Path: segments.join('.'), segments, owners });
    const encoded = encodeOwnedFields([
      field(['f:data'], [a]),
      field(['f:data', 'f:key'], [a, odd]),
      field(['f:metadata', 'f:labels', 'f:app'], [odd]),
      field(['f:metadata', 'f:labels', 'f:rev'], []),
    ]);
    expect(JSON.parse(JSON.stringify(encoded))).toEqual({
      owners: [['a', 'Apply', 'v1', '', '7', '2026-01-01T00:00:00Z', true], odd],
      fields: [[0, 'f:data', 0], [1, 'f:key', 0, 1], [0, 'f:metadata', 'f:labels', 'f:app', 1], [2, 'f:rev']],
    });
    const decoded = decodeOwnedFields(JSON.parse(JSON.stringify(encoded)));
    expect(decoded.map((f) => [f.path, f.fieldsV1Path, f.owners.map((o) => o.manager)])).toEqual([
      ['.data', 'f:data', ['a']],
      ['.data.key', 'f:data.f:key', ['a', 'b']],
      ['.metadata.labels.app', 'f:metadata.f:labels.f:app', ['b']],
      ['.metadata.labels.rev', 'f:metadata.f:labels.f:rev', []],
    ]);
    expect(JSON.stringify(decoded[0]!.owners[0])).toBe(JSON.stringify(a));
    expect(decoded[2]!.owners[0]).toEqual(odd);
  });

  it('still reads the form rows were written in before (owner objects, whole segment lists)', () => {
    const owner = { manager: 'm', operation: 'Update' as const, apiVersion: 'v1', subresource: '', since: { seq: '1', at: '2026-01-01T00:00:00Z' }, sinceFirstObservation: false };
    const legacy = { owners: [owner], fields: [[['f:data'], 0], [['f:data', 'f:key'], 0]] } as unknown as Parameters<typeof decodeOwnedFields>[0];
    expect(JSON.stringify(decodeOwnedFields(JSON.parse(JSON.stringify(legacy))))).toBe(
      JSON.stringify([
        { path: '.data', fieldsV1Path: 'f:data', segments: ['f:data'], owners: [owner] },
        { path: '.data.key', fieldsV1Path: 'f:data.f:key', segments: ['f:data', 'f:key'], owners: [owner] },
      ]),
    );
  });
});
