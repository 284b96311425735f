// Untrusted keys (`__proto__`, `constructor`) in objects and managedFields stay plain data.
import { fieldOwners, ownershipTree } from './field-owners.read-model.js';
import { fieldHistory } from './field-history.read-model.js';
import { findings } from './findings.read-model.js';
import { managerIndex } from './manager-index.read-model.js';
import { foldObjectOwnership } from './object-ownership.projection.js';
import { testEvent } from './testing/conformance-events.js';

const object = JSON.parse(`{
  "apiVersion": "v1", "kind": "ConfigMap",
  "metadata": {
    "name": "x", "namespace": "d", "labels": { "__proto__": "polluted" },
    "managedFields": [
      { "manager": "__proto__", "operation": "Apply", "apiVersion": "v1", "time": "2026-01-01T00:00:00Z", "fieldsType": "FieldsV1",
        "fieldsV1": { "f:metadata": { "f:labels": { "f:__proto__": {} } }, "f:data": { "f:constructor": {} } } }
    ]
  },
  "data": { "constructor": "c" }
}`) as unknown;

const event = testEvent({ object });

describe('hostile keys', () => {
  it('are owned, read and indexed as ordinary keys', () => {
    const state = foldObjectOwnership([event]).state!;
    expect(state.fields.map((f) => f.path)).toEqual(['.data.constructor', '.metadata.labels.__proto__']);
    expect(fieldOwners(state, '.metadata.labels.__proto__')).toMatchObject({ present: true, value: 'polluted', owners: [{ manager: '__proto__' }] });
    expect(fieldOwners(state, '.data.constructor').value).toBe('c');
    expect(fieldOwners(state, '.data.toString')).toMatchObject({ present: false, value: null });
    expect(fieldHistory([event], '.data.constructor').values.map((v) => v.value)).toEqual(['c']);
    expect(ownershipTree(state).children.map((n) => n.segment)).toEqual(['data', 'metadata']);
    expect(managerIndex([state]).map((m) => m.manager)).toEqual(['__proto__']);
    expect(findings([state])).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
