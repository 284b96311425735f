import { SsaEngineError } from '../errors.js';
import { canonicalQuantity, parseQuantity } from './quantity.js';

describe('canonicalQuantity', () => {
  it.each([
    // already canonical: kept
    ['0', '0'],
    ['100m', '100m'],
    ['128Mi', '128Mi'],
    ['1Gi', '1Gi'],
    ['1n', '1n'],
    ['100u', '100u'],
    ['10Mi', '10Mi'],
    ['1025Ki', '1025Ki'],
    ['12e6', '12e6'],
    ['1e3', '1e3'],
    // decimal: largest SI suffix without a fraction
    ['0.5', '500m'],
    ['1.5', '1500m'],
    ['1000', '1k'],
    ['1500000', '1500k'],
    ['1.0', '1'],
    ['1.0001', '1000100u'],
    ['0.1m', '100u'],
    ['1000m', '1'],
    ['-1.5', '-1500m'],
    // binary: largest power of 1024; below 1024 or with a fraction shown as DecimalSI
    ['1000Mi', '1000Mi'],
    ['1024Mi', '1Gi'],
    ['2048Ki', '2Mi'],
    ['8Gi', '8Gi'],
    ['1.5Gi', '1536Mi'],
    ['0.5Gi', '512Mi'],
    ['0.5Ki', '512'],
    ['1.5Ki', '1536'],
    ['-1.5Gi', '-1536Mi'],
    ['0Ki', '0'],
    // exponent form stays in exponent form
    ['1.1e5', '110e3'],
    ['12e2', '1200'],
    ['1e-3', '1e-3'],
    // finer than 1n: rounded up (away from zero) to 1n
    ['0.1n', '1n'],
    ['1.5n', '2n'],
    ['-0.1n', '-1n'],
    ['0.0000000001', '1n'],
    // big values go through exact arithmetic
    ['123456789012345678901234', '123456789012345678901234'],
    ['16Ei', '9223372036854775807'],
    // Go quirks, reproduced: the input is reused when the parser deems it canonical...
    ['01Gi', '01Gi'],
    ['010', '010'],
    ['+100m', '+100m'],
    ['1E3', '1E3'],
    // ...and a decimal exponent above 18 has no SI suffix
    ['1000E', '1'],
    // white space around the value is ignored
    [' 1Gi ', '1Gi'],
  ])('%j → %j', (input, expected) => {
    expect(canonicalQuantity(input)).toBe(expected);
  });

  it.each([
    [1, '1'],
    [0, '0'],
    [0.5, '500m'],
    [1000, '1k'],
    [1024, '1024'],
    [-2, '-2'],
    [1e21, '1e+21'],
  ])('the JSON number %j → %j', (input, expected) => {
    expect(canonicalQuantity(input)).toBe(expected);
  });

  it.each(['', 'abc', '1.2.3', '1Q', '1ki', '1e', '1Mi3', 'Infinity'])('rejects %j', (input) => {
    expect(() => canonicalQuantity(input)).toThrow(expect.objectContaining({ code: 'invalid-object' }) as SsaEngineError);
  });

  it('parses into mantissa, exponent and format', () => {
    expect(parseQuantity('1.5Gi')).toEqual({ mantissa: 16106127360n, exponent: -1, format: 'BinarySI', cached: undefined });
    expect(parseQuantity('500m')).toEqual({ mantissa: 500n, exponent: -3, format: 'DecimalSI', cached: '500m' });
    // a BinarySI value below 1 becomes DecimalSI
    expect(parseQuantity('0.0001Ki').format).toBe('DecimalSI');
    expect(canonicalQuantity('0.0001Ki')).toBe('102400u');
  });
});
