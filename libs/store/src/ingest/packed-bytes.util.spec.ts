import { packBytes } from './packed-bytes.util.js';

describe('packBytes', () => {
  it('packs byte strings back to back with 1-based starts; a missing value has length -1', () => {
    const p = packBytes(['ab', null, Buffer.from([1, 2, 3]), 'é']);
    expect(p.starts).toEqual([1, 3, 3, 6]);
    expect(p.lengths).toEqual([2, -1, 3, 2]);
    expect([...p.bytes]).toEqual([0x61, 0x62, 1, 2, 3, 0xc3, 0xa9]);
  });
  it('packs nothing into an empty buffer', () => {
    expect(packBytes([]).bytes.length).toBe(0);
  });
});
