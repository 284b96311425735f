import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { caseNames, caseStates } from '../../../audit/src/testing/conformance-events.js';
import { STATE_DICTIONARY_V1 } from './state-dictionary.v1.js';
import { STATE_FORMAT_DEFLATE_V1, compressStateDocument, decompressStateDocument } from './state-document.codec.js';
import { stateFromRow, stateRowOf, type StateRow } from './state-row.js';

/** A row as Postgres gives it back: the compressed document as bytes, the rest as written. */
function storedRow(row: ReturnType<typeof stateRowOf>): StateRow {
  const { state_compressed, first_at: _f, last_at: _l, ...columns } = row;
  return { ...columns, state: null, state_compressed: Buffer.from(state_compressed, 'base64'), schema: null };
}

describe('state documents stored compressed', () => {
  it.each(caseNames())('%s: every state (and its deletion) reads back as folded, and as its json row read, JSON text for JSON text', (name) => {
    for (const state of caseStates(name, { deleted: true })) {
      const compressed = storedRow(stateRowOf(state));
      const schema = JSON.parse(JSON.stringify(state.schema));
      const read = stateFromRow({ ...compressed, schema });
      expect(read).toEqual(JSON.parse(JSON.stringify(state)));
      // A row written before this format: the same document as json (what Postgres's json column gives back).
      const asJson: StateRow = { ...compressed, state: JSON.parse(JSON.stringify(decompressStateDocument(compressed.state_compressed!))), state_compressed: null, schema };
      expect(JSON.stringify(read)).toBe(JSON.stringify(stateFromRow(asJson)));
    }
  });

  it('keeps what JSON text escapes: U+0000, lone surrogates, quotes and backslashes in values and keys', () => {
    const document = { object: { metadata: { annotations: { 'a\u0000b': 'x\u0000y', lone: '\ud800', quoted: '"\\' } } }, fields: { owners: [], fields: [] } };
    const stored = compressStateDocument(document);
    expect(JSON.stringify(decompressStateDocument(stored))).toBe(JSON.stringify(document));
  });

  it('starts with its format byte and refuses a format it does not know, saying what to do', () => {
    const stored = compressStateDocument({ a: 1 });
    expect(stored[0]).toBe(STATE_FORMAT_DEFLATE_V1);
    const other = Buffer.from(stored);
    other[0] = 2;
    expect(() => decompressStateDocument(other)).toThrow(/format 2, which this version of ssa-audit cannot read .*replay the projection/);
    expect(() => decompressStateDocument(Buffer.alloc(0))).toThrow(/format \(empty\)/);
  });

  it('never changes its dictionary: every stored state is decoded with exactly these bytes', () => {
    expect(createHash('sha256').update(STATE_DICTIONARY_V1, 'utf8').digest('hex')).toBe(PINNED_DICTIONARY_SHA256);
  });

  it('stores the recorded cases\' documents in under a quarter of their JSON text, and the dictionary helps', () => {
    let text = 0;
    let plain = 0;
    let stored = 0;
    for (const name of caseNames()) {
      for (const state of caseStates(name)) {
        const document = decompressStateDocument(Buffer.from(stateRowOf(state).state_compressed, 'base64'));
        const json = Buffer.from(JSON.stringify(document));
        text += json.length;
        plain += deflateRawSync(json).length;
        stored += compressStateDocument(document).length;
      }
    }
    expect(stored * 4).toBeLessThan(text);
    expect(stored).toBeLessThan(plain * 0.75);
  });
});

const PINNED_DICTIONARY_SHA256 = '0f1821b2c8cc307006ca0d839e50f77988fe1df5c8e0b054f72c40cbcff6df99';
