import { FieldSet } from '../fieldpath/field-set.js';
import { fieldName } from '../fieldpath/path-element.js';
import { entryIdentity, type Managers } from '../managed-fields/managed-fields.js';
import { Schema } from '../schema/resolved-schema.js';
import { smdApply } from './updater.js';

const schema = new Schema({
  types: [{ name: 'obj', map: { fields: [{ name: 'a', type: { scalar: 'string' } }, { name: 'b', type: { scalar: 'string' } }] } }],
});
const type = schema.type('obj');
const path = (n: string) => [fieldName(n)];

function managersAt(version: string): Managers {
  const e = { manager: 'old', operation: 'Apply' as const, apiVersion: version, subresource: '', time: undefined };
  return new Map([[entryIdentity(e), { ...e, set: FieldSet.fromPaths([path('a')]) }]]);
}
const me = { manager: 'new', operation: 'Apply' as const, apiVersion: 'v2', subresource: '', time: undefined };
const meId = entryIdentity(me);

describe('managers at other API versions (04 §0, §3.6)', () => {
  it('drops a manager whose version is no longer served, without conflicts', () => {
    const r = smdApply({ a: 'x' }, { a: 'y' }, managersAt('v1'), meId, me, false, { type, apiVersion: 'v2' });
    expect([...r.managers.keys()]).toEqual([meId]);
  });

  it('keeps a manager at another served version untouched: no conflict, no loss', () => {
    const ctx = { type, apiVersion: 'v2', isServedVersion: (v: string) => v === 'v1' || v === 'v2' };
    const r = smdApply({ a: 'x' }, { a: 'y' }, managersAt('v1'), meId, me, false, ctx);
    const old = [...r.managers.values()].find((e) => e.manager === 'old');
    expect(old?.apiVersion).toBe('v1');
    expect(old?.set.has(path('a'))).toBe(true);
    expect(r.object).toEqual({ a: 'y' });
  });
});
