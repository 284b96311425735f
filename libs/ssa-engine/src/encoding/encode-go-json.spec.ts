import { SsaEngineError } from '../errors.js';
import { compareGoStrings, encodeGoJson } from './encode-go-json.js';
import {
  GO_FIELDS_V1,
  GO_INT_OR_STRING,
  GO_MICRO_TIME,
  GO_QUANTITY,
  GO_RAW_EXTENSION,
  GO_TIME,
  type GoJsonEncodingDocument,
} from './go-json-encoding.js';

const custom = { custom: 'has its own JSON encoder' };
const doc: GoJsonEncodingDocument = {
  types: {
    T: {
      fields: [
        { json: 'kind', kind: 'string', omitempty: true },
        { json: 'apiVersion', kind: 'string', omitempty: true },
        { json: 's', kind: 'string' },
        { json: 'so', kind: 'string', omitempty: true },
        { json: 'i', kind: 'int' },
        { json: 'io', kind: 'int', omitempty: true },
        { json: 'b', kind: 'bool' },
        { json: 'bo', kind: 'bool', omitempty: true },
        { json: 'p', kind: 'pointer', elem: 'int:' },
        { json: 'po', kind: 'pointer', elem: 'bool:', omitempty: true },
        { json: 'ps', kind: 'pointer', elem: 'struct:S', omitempty: true },
        { json: 'sl', kind: 'slice', elem: 'string:' },
        { json: 'slo', kind: 'slice', elem: 'struct:S', omitempty: true },
        { json: 'm', kind: 'map', elem: 'string:' },
        { json: 'mo', kind: 'map', elem: 'string:', omitempty: true },
        { json: 'st', kind: 'struct', elem: 'S' },
        { json: 'sto', kind: 'struct', elem: 'S', omitempty: true },
        { json: 'stz', kind: 'struct', elem: 'S', omitempty: true, omitzero: true },
        { json: 't', kind: 'custom', elem: GO_TIME, omitempty: true },
        { json: 'tz', kind: 'custom', elem: GO_TIME, omitempty: true, omitzero: true },
        { json: 'pt', kind: 'pointer', elem: `custom:${GO_MICRO_TIME}`, omitempty: true },
        { json: 'q', kind: 'custom', elem: GO_QUANTITY, omitempty: true },
        { json: 'mq', kind: 'map', elem: `custom:${GO_QUANTITY}`, omitempty: true },
        { json: 'ios', kind: 'custom', elem: GO_INT_OR_STRING, omitempty: true },
        { json: 'pios', kind: 'pointer', elem: `custom:${GO_INT_OR_STRING}`, omitempty: true },
        { json: 'raw', kind: 'custom', elem: GO_RAW_EXTENSION, omitempty: true },
        { json: 'f', kind: 'pointer', elem: `custom:${GO_FIELDS_V1}`, omitempty: true },
        { json: 'by', kind: 'bytes' },
        { json: 'byo', kind: 'bytes', omitempty: true },
        { json: 'x', kind: 'interface', omitempty: true },
      ],
    },
    S: {
      fields: [
        { json: 'a', kind: 'string', omitempty: true },
        { json: 'n', kind: 'int' },
      ],
    },
    [GO_TIME]: custom,
    [GO_MICRO_TIME]: custom,
    [GO_QUANTITY]: custom,
    [GO_INT_OR_STRING]: custom,
    [GO_RAW_EXTENSION]: custom,
    [GO_FIELDS_V1]: custom,
    Dur: { fields: [{ json: 'd', kind: 'custom', elem: 'io.k8s.apimachinery.pkg.apis.meta.v1.Duration' }] },
  },
};

const encode = (obj: unknown): string => JSON.stringify(encodeGoJson(doc, 'T', obj));
const code = (c: string): SsaEngineError => expect.objectContaining({ code: c }) as SsaEngineError;

describe('encodeGoJson: Go encoding/json rules', () => {
  it('an empty object is the Go zero value: omitempty/omitzero dropped, structs {}, nil as null', () => {
    expect(encode({})).toBe(
      '{"s":"","i":0,"b":false,"p":null,"sl":null,"m":null,"st":{"n":0},"sto":{"n":0},' +
        '"t":null,"q":"0","ios":0,"raw":null,"by":null}',
    );
  });

  it('null for a scalar or struct is the zero value; for a pointer, slice, map, bytes it is nil', () => {
    const allNull = Object.fromEntries(
      ['s', 'so', 'i', 'io', 'b', 'bo', 'p', 'po', 'ps', 'sl', 'slo', 'm', 'mo', 'st', 'sto', 'stz'].map((k) => [k, null]),
    );
    expect(encode(allNull)).toBe(encode({}));
    expect(encode({ t: null, tz: null, pt: null, q: null, ios: null, raw: null, f: null, by: null, x: null })).toBe(
      encode({}),
    );
  });

  it('fields are written in Go order, kind before apiVersion', () => {
    const out = encodeGoJson(doc, 'T', { apiVersion: 'v1', so: 'x', kind: 'K', s: 'y' });
    expect(Object.keys(out).slice(0, 4)).toEqual(['kind', 'apiVersion', 's', 'so']);
  });

  it('omitempty drops false, 0 and "", but present values are written', () => {
    const out = encodeGoJson(doc, 'T', { so: '', io: 0, bo: false, s: '', i: 0, b: false });
    expect(out).not.toHaveProperty('so');
    expect(out).not.toHaveProperty('io');
    expect(out).not.toHaveProperty('bo');
    expect(encodeGoJson(doc, 'T', { so: 'a', io: 3, bo: true })).toMatchObject({ so: 'a', io: 3, bo: true });
  });

  it('a non-nil pointer is written even when it points at a zero value', () => {
    expect(encodeGoJson(doc, 'T', { p: 0, po: false, ps: {} })).toMatchObject({ p: 0, po: false, ps: { n: 0 } });
  });

  it('omitempty drops an empty slice or map; without it, empty is [] / {} and nil is null', () => {
    const out = encodeGoJson(doc, 'T', { sl: [], slo: [], m: {}, mo: {} });
    expect(out).toMatchObject({ sl: [], m: {} });
    expect(out).not.toHaveProperty('slo');
    expect(out).not.toHaveProperty('mo');
  });

  it('omitempty never drops a struct; omitzero drops it only when all its fields are zero', () => {
    expect(encodeGoJson(doc, 'T', { sto: {}, stz: {} })).toMatchObject({ sto: { n: 0 } });
    expect(encodeGoJson(doc, 'T', { stz: {} })).not.toHaveProperty('stz');
    expect(encodeGoJson(doc, 'T', { stz: { n: 0, a: '' } })).not.toHaveProperty('stz');
    expect(encodeGoJson(doc, 'T', { stz: { n: 1 } })).toMatchObject({ stz: { n: 1 } });
  });

  it('slice elements: null becomes the element zero value; struct elements are encoded', () => {
    expect(encodeGoJson(doc, 'T', { sl: ['a', null], slo: [{ n: 1, zz: 2 }, null] })).toMatchObject({
      sl: ['a', ''],
      slo: [{ n: 1 }, { n: 0 }],
    });
  });

  it('map keys are written sorted by UTF-8 bytes; values decoded by the element type', () => {
    const out = encodeGoJson(doc, 'T', { m: { b: '1', a: null, B: '2', '\u{1F600}': 'x', '\uFFFD': 'y' } });
    expect(Object.keys(out['m'] as object)).toEqual(['B', 'a', 'b', '\uFFFD', '\u{1F600}']);
    expect((out['m'] as Record<string, string>)['a']).toBe('');
  });

  it('untrusted keys such as __proto__ are kept as plain data', () => {
    const input = JSON.parse('{"m":{"__proto__":"x","constructor":"y"}}') as unknown;
    const m = encodeGoJson(doc, 'T', input)['m'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
    expect(Object.keys(m)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(m)).toBe('{"__proto__":"x","constructor":"y"}');
  });

  it('unknown fields are dropped; field names are case-sensitive', () => {
    expect(encode({ Kind: 'K', S: 'x', extra: 1, st: { A: 'x', extra: true } })).toBe(encode({}));
  });

  it('Time: UTC with seconds, null when zero; omitzero drops a zero Time', () => {
    expect(encodeGoJson(doc, 'T', { t: '2024-01-01T01:00:00.5+01:00', tz: '2024-01-01T00:00:00Z' })).toMatchObject({
      t: '2024-01-01T00:00:00Z',
      tz: '2024-01-01T00:00:00Z',
    });
    const zero = encodeGoJson(doc, 'T', { t: '0001-01-01T00:00:00Z', tz: '0001-01-01T00:00:00Z' });
    expect(zero['t']).toBeNull();
    expect(zero).not.toHaveProperty('tz');
  });

  it('MicroTime: six fractional digits', () => {
    expect(encodeGoJson(doc, 'T', { pt: '2024-01-01T00:00:00.5Z' })['pt']).toBe('2024-01-01T00:00:00.500000Z');
  });

  it('Quantity: canonical string, also from a number; a map of quantities too', () => {
    expect(encodeGoJson(doc, 'T', { q: '0.5', mq: { memory: '1024Mi', cpu: 2 } })).toMatchObject({
      q: '500m',
      mq: { cpu: '2', memory: '1Gi' },
    });
  });

  it('IntOrString: an int or a string as given, 0 when absent', () => {
    expect(encodeGoJson(doc, 'T', { ios: 'http', pios: 8080 })).toMatchObject({ ios: 'http', pios: 8080 });
    expect(encodeGoJson(doc, 'T', { ios: '80' })['ios']).toBe('80');
    expect(encodeGoJson(doc, 'T', {})['ios']).toBe(0);
  });

  it('RawExtension and FieldsV1 keep their JSON as given, key order included', () => {
    const raw = { z: 1, a: [{ y: null, b: 'x' }] };
    const f = { 'f:spec': { 'f:b': {}, 'f:a': {} } };
    const out = encodeGoJson(doc, 'T', { raw, f });
    expect(JSON.stringify(out['raw'])).toBe(JSON.stringify(raw));
    expect(JSON.stringify(out['f'])).toBe(JSON.stringify(f));
    expect(out['raw']).not.toBe(raw);
  });

  it('bytes: base64 text kept; empty is "" (nil is null) and dropped by omitempty', () => {
    expect(encodeGoJson(doc, 'T', { by: '', byo: '' })).toMatchObject({ by: '' });
    expect(encodeGoJson(doc, 'T', { byo: '' })).not.toHaveProperty('byo');
    expect(encodeGoJson(doc, 'T', { byo: 'aGk=' })['byo']).toBe('aGk=');
  });

  it('interface{}: generic JSON with sorted map keys', () => {
    expect(JSON.stringify(encodeGoJson(doc, 'T', { x: { b: 1, a: [{ d: 1, c: 2 }] } })['x'])).toBe(
      '{"a":[{"c":2,"d":1}],"b":1}',
    );
  });

  it('-0 is written as 0', () => {
    expect(JSON.stringify(encodeGoJson(doc, 'T', { i: -0 })['i'])).toBe('0');
  });

  it.each([
    [{ s: 1 }, '.s'],
    [{ i: '1' }, '.i'],
    [{ i: 1.5 }, '.i'],
    [{ b: 'true' }, '.b'],
    [{ p: 'x' }, '.p'],
    [{ sl: 'x' }, '.sl'],
    [{ sl: [1] }, '.sl[0]'],
    [{ m: [] }, '.m'],
    [{ m: { k: 1 } }, '.m["k"]'],
    [{ st: 'x' }, '.st'],
    [{ st: [] }, '.st'],
    [{ t: 'yesterday' }, '.t'],
    [{ q: 'lots' }, '.q'],
    [{ q: true }, '.q'],
    [{ ios: 1.5 }, '.ios'],
    [{ ios: true }, '.ios'],
    [{ by: 1 }, '.by'],
  ])('%j does not decode: invalid-object at %s', (obj, path) => {
    expect(() => encodeGoJson(doc, 'T', obj)).toThrow(expect.objectContaining({ code: 'invalid-object', path }) as SsaEngineError);
  });

  it('the object itself must be a JSON object', () => {
    for (const v of [null, [], 'x', 1]) expect(() => encodeGoJson(doc, 'T', v)).toThrow(code('invalid-object'));
  });

  it('unknown types and custom types without an encoder are unknown-kind', () => {
    expect(() => encodeGoJson(doc, 'Nope', {})).toThrow(code('unknown-kind'));
    expect(() => encodeGoJson(doc, GO_TIME, {})).toThrow(code('unknown-kind'));
    expect(() => encodeGoJson(doc, 'Dur', {})).toThrow(code('unknown-kind'));
  });

  it('opaque JSON nested deeper than MAX_DEPTH is too-deep', () => {
    let raw: unknown = 1;
    for (let i = 0; i < 300; i++) raw = [raw];
    expect(() => encodeGoJson(doc, 'T', { raw })).toThrow(code('too-deep'));
  });
});

describe('compareGoStrings', () => {
  it('orders by code point (UTF-8 byte order), not UTF-16 units', () => {
    expect(['\u{1F600}', '\uFFFD', 'b', 'a', 'ab', ''].sort(compareGoStrings)).toEqual(['', 'a', 'ab', 'b', '\uFFFD', '\u{1F600}']);
  });
});
