import fc from 'fast-check';
import { applyPatch, createPatch } from 'rfc6902';
import { diffJson } from './json-diff.util.js';
import { applyStoredPatch } from './json-patch.util.js';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
/** Whether a value holds a key rfc6902's pointer passes over (where the two appliers differ, on purpose). */
const holdsSkippedKey = (v: unknown): boolean => /"(__proto__|constructor|prototype)"/.test(JSON.stringify(v));

describe('applyStoredPatch: the stored body patches', () => {
  it('turns a body into the next one with the patches diffJson writes, as rfc6902 does where no key is a skipped one', () => {
    const body = fc.jsonValue({ maxDepth: 4 }).map((v) => ({ v }));
    fc.assert(
      fc.property(body, body, (a, b) => {
        const ops = diffJson(a, b).filter((op) => op.path !== '');
        fc.pre(ops.length === diffJson(a, b).length);
        expect(applyStoredPatch(clone(a), clone(ops))).toEqual(clone(b));
        if (!holdsSkippedKey(a) && !holdsSkippedKey(b)) {
          const theirs = clone(a);
          expect(applyPatch(theirs, clone(ops)).every((e) => e === null)).toBe(true);
          expect(applyStoredPatch(clone(a), clone(ops))).toEqual(theirs);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("applies rfc6902's createPatch output (array insertions and removals: how the oldest events were written)", () => {
    const body = fc.record({ v: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 6 }), w: fc.jsonValue({ maxDepth: 3 }) });
    fc.assert(
      fc.property(body, body, (a, b) => {
        fc.pre(!holdsSkippedKey(a) && !holdsSkippedKey(b));
        // As stored: JSON text parsed (no -0, which fast-check's values may hold and JSON cannot).
        expect(applyStoredPatch(clone(a), clone(createPatch(a, b)))).toEqual(clone(b));
      }),
      { numRuns: 1000, examples: [[{ v: [], w: {} }, { v: [], w: [-0] }]] },
    );
  });

  it('descends through map keys named "constructor" and "prototype", which rfc6902 passes over', () => {
    for (const key of ['constructor', 'prototype']) {
      const from = { spec: { [key]: { a: 1, [key]: { b: 1 } }, a: 5 } };
      const to = { spec: { [key]: { a: 2, [key]: { b: 2, c: 3 } }, a: 5 } };
      const ops = diffJson(from, to);
      expect(ops.map((op) => op.path)).toEqual([`/spec/${key}/a`, `/spec/${key}/${key}/b`, `/spec/${key}/${key}/c`]);
      expect(applyStoredPatch(clone(from), ops)).toEqual(to);
      // rfc6902 lands them on the node above: the reason for this applier.
      const theirs = clone(from);
      applyPatch(theirs, clone(ops));
      expect(theirs).not.toEqual(to);
    }
  });

  it('sees only own keys ("constructor" on a map without it is absent) and keeps "__proto__" as a plain key', () => {
    expect(() => applyStoredPatch({ spec: {} }, [{ op: 'remove', path: '/spec/constructor' }])).toThrow(/nothing there/);
    expect(() => applyStoredPatch({ spec: {} }, [{ op: 'add', path: '/spec/constructor/a', value: 1 }])).toThrow(/no container there/);
    const doc = applyStoredPatch(JSON.parse('{"spec":{}}'), [{ op: 'add', path: '/spec/__proto__', value: { polluted: true } }]) as { spec: object };
    expect(Object.getPrototypeOf(doc.spec)).toBe(Object.prototype);
    expect(JSON.stringify(doc)).toBe('{"spec":{"__proto__":{"polluted":true}}}');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    const replaced = applyStoredPatch(JSON.parse('{"spec":{"__proto__":1}}'), [{ op: 'replace', path: '/spec/__proto__', value: 2 }]);
    expect(JSON.stringify(replaced)).toBe('{"spec":{"__proto__":2}}');
  });

  it('unescapes reference tokens and follows arrays', () => {
    const doc = { 'a/b': { 'c~d': [1, 2, 3] } };
    applyStoredPatch(doc, [
      { op: 'replace', path: '/a~1b/c~0d/1', value: 20 },
      { op: 'add', path: '/a~1b/c~0d/-', value: 4 },
      { op: 'add', path: '/a~1b/c~0d/0', value: 0 },
      { op: 'remove', path: '/a~1b/c~0d/3' },
    ]);
    expect(doc).toEqual({ 'a/b': { 'c~d': [0, 1, 20, 4] } });
  });

  it.each([
    ['the root', [{ op: 'replace', path: '', value: 1 }], /root/],
    ['a missing parent', [{ op: 'add', path: '/x/y', value: 1 }], /no container there/],
    ['a missing key', [{ op: 'replace', path: '/a/z', value: 1 }], /nothing there/],
    ['an index past the end', [{ op: 'add', path: '/list/3', value: 1 }], /no such index/],
    ['a replace past the end', [{ op: 'replace', path: '/list/2', value: 1 }], /no such index/],
    ['a non-index token into an array', [{ op: 'remove', path: '/list/length' }], /nothing there/],
    ['a value-less add', [{ op: 'add', path: '/a/q' }], /no value/],
    ['an operation never stored', [{ op: 'move', from: '/a', path: '/b' }], /never hold/],
    ['not a list', { op: 'add' }, /not an array/],
  ])('refuses %s', (_, ops, message) => {
    expect(() => applyStoredPatch({ a: { k: 1 }, list: [1, 2] }, ops)).toThrow(message);
  });
});
