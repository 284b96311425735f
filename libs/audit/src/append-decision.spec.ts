import { decideAppend, nextTip, type ObjectTip } from './append-decision.js';

const h = (n: number) => new Uint8Array(32).fill(n);
const NEW: ObjectTip = { fieldsHash: null, valuesHash: null, hasSnapshot: false, eventsSinceSnapshot: 0 };

describe('decideAppend', () => {
  it('stores the first observation whole', () => {
    expect(decideAppend(NEW, { type: 'ADDED', fieldsHash: h(1), valuesHash: h(2) }, 50)).toEqual({ store: true, body: 'full' });
  });

  it('counts, without storing, an observation with the same managedFields and tracked values', () => {
    const tip = nextTip(NEW, { type: 'ADDED', fieldsHash: h(1), valuesHash: h(2) }, 'full');
    expect(decideAppend(tip, { type: 'MODIFIED', fieldsHash: h(1), valuesHash: h(2) }, 50)).toEqual({ store: false });
    expect(decideAppend(tip, { type: 'MODIFIED', fieldsHash: h(1), valuesHash: h(3) }, 50)).toEqual({ store: true, body: 'patch' });
    expect(decideAppend(tip, { type: 'MODIFIED', fieldsHash: h(4), valuesHash: h(2) }, 50)).toEqual({ store: true, body: 'patch' });
  });

  it('always stores a deletion', () => {
    const tip = nextTip(NEW, { type: 'ADDED', fieldsHash: h(1), valuesHash: h(2) }, 'full');
    expect(decideAppend(tip, { type: 'DELETED', fieldsHash: h(1), valuesHash: h(2) }, 50)).toEqual({ store: true, body: 'patch' });
  });

  it('stores every snapshotEvery-th body whole, so a read rebuilds at most that many', () => {
    let tip = nextTip(NEW, { type: 'ADDED', fieldsHash: h(0), valuesHash: h(0) }, 'full');
    const bodies: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const o = { type: 'MODIFIED' as const, fieldsHash: h(i), valuesHash: h(0) };
      const d = decideAppend(tip, o, 3);
      if (!d.store) throw new Error('stored expected');
      bodies.push(d.body);
      tip = nextTip(tip, o, d.body);
    }
    expect(bodies).toEqual(['patch', 'patch', 'full', 'patch', 'patch', 'full', 'patch']); // one whole body, then 2 patches against it
  });
});
