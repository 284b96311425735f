import { throughInternalVersion } from './conversion.js';
import { builtinResourceTypes, type ResourceType } from './resource-type.js';

const type = (kind: string): ResourceType => builtinResourceTypes().find((t) => t.kind === kind)!;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('throughInternalVersion: Secret (Convert_v1_Secret_To_core_Secret)', () => {
  const secret = type('Secret');
  const fold = (o: Record<string, unknown>) => {
    throughInternalVersion(secret, o);
    return o;
  };

  it.each([
    ['stringData alone becomes data, base64 of the UTF-8 bytes', { stringData: { user: 'admin', pw: 'pässwörd ✓' } }, { data: { user: b64('admin'), pw: b64('pässwörd ✓') } }],
    ['merges into data; a stringData key wins over the same data key', { data: { a: b64('old'), keep: b64('k') }, stringData: { a: 'new', b: 'b' } }, { data: { a: b64('new'), keep: b64('k'), b: b64('b') } }],
    ['an empty stringData is dropped and changes nothing', { data: { a: 'YQ==' }, stringData: {} }, { data: { a: 'YQ==' } }],
    ['a null stringData is dropped', { stringData: null }, {}],
    ['an empty value is an empty data value', { stringData: { e: '' } }, { data: { e: '' } }],
    ['a null value is the zero string', { stringData: { n: null } }, { data: { n: '' } }],
    ['a Secret without stringData is untouched', { type: 'Opaque', data: { a: 'YQ==' } }, { type: 'Opaque', data: { a: 'YQ==' } }],
  ])('%s', (_, input, want) => {
    expect(fold(structuredClone(input) as Record<string, unknown>)).toEqual(want);
  });

  it('keeps a __proto__ key as an own data member', () => {
    const o = fold(JSON.parse('{"data":{"__proto__":"eA=="},"stringData":{"constructor":"c"}}') as Record<string, unknown>);
    expect(JSON.stringify(o)).toBe(`{"data":{"__proto__":"eA==","constructor":"${b64('c')}"}}`);
    expect(Object.getPrototypeOf(o['data'])).toBe(Object.prototype);
  });

  it('leaves other kinds alone, a stringData-like field included', () => {
    const o = { data: { a: 'x' }, stringData: { a: 'y' } };
    throughInternalVersion(type('ConfigMap'), o);
    expect(o).toEqual({ data: { a: 'x' }, stringData: { a: 'y' } });
  });
});
