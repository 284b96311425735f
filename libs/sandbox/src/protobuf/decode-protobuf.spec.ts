import { ApiError } from '../api-error.js';
import { decodeKubernetesProtobuf, PROTOBUF_MAGIC } from './decode-protobuf.js';

// A minimal protobuf writer for the test: varints and length-delimited fields.
const varint = (n: number): number[] => {
  const out: number[] = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
};
const field = (num: number, value: number[] | string | number): number[] => {
  if (typeof value === 'number') return [...varint(num << 3), ...varint(value)];
  const bytes = typeof value === 'string' ? [...Buffer.from(value)] : value;
  return [...varint((num << 3) | 2), ...varint(bytes.length), ...bytes];
};
const msg = (...fields: number[][]) => fields.flat();

function envelope(apiVersion: string, kind: string, raw: number[]): Buffer {
  const unknown = msg(field(1, msg(field(1, apiVersion), field(2, kind))), field(2, raw));
  return Buffer.concat([PROTOBUF_MAGIC, Buffer.from(unknown)]);
}

describe('Kubernetes protobuf bodies', () => {
  it('decodes a ConfigMap: ObjectMeta, string and bytes maps', () => {
    const meta = msg(field(1, 'cfg'), field(3, 'default'), field(11, msg(field(1, 'app'), field(2, 'web'))));
    const raw = msg(field(1, meta), field(2, msg(field(1, 'k'), field(2, 'v'))), field(3, msg(field(1, 'b'), field(2, [1, 2, 3]))));
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', raw))).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', namespace: 'default', labels: { app: 'web' } },
      data: { k: 'v' },
      binaryData: { b: 'AQID' },
    });
  });

  it('decodes IntOrString, negative int32, times (zero time is null) and repeated messages', () => {
    // ServiceSpec: ports (1) with port (3) and targetPort (4, IntOrString); Service metadata creationTimestamp (8).
    const port = msg(field(3, 80), field(4, msg(field(1, 1), field(3, 'http'))));
    const port2 = msg(field(3, 81), field(4, msg(field(1, 0), field(2, -1))));
    const meta = msg(field(1, 's'), field(8, msg(field(1, 1_700_000_000))));
    const raw = msg(field(1, meta), field(2, msg(field(1, port), field(1, port2))));
    const out = decodeKubernetesProtobuf(envelope('v1', 'Service', raw)) as any;
    expect(out.metadata.creationTimestamp).toBe('2023-11-14T22:13:20Z');
    expect(out.spec.ports).toEqual([
      { port: 80, targetPort: 'http' },
      { port: 81, targetPort: -1 },
    ]);
    const zero = decodeKubernetesProtobuf(envelope('v1', 'Service', msg(field(1, msg(field(8, [])))))) as any;
    expect(zero.metadata.creationTimestamp).toBeNull();
  });

  it('rejects bodies without the magic prefix, truncated ones and unknown kinds', () => {
    expect(() => decodeKubernetesProtobuf(Buffer.from('{}'))).toThrow(ApiError);
    const truncated = envelope('v1', 'ConfigMap', msg(field(1, msg(field(1, 'cfg'))))).subarray(0, 12);
    expect(() => decodeKubernetesProtobuf(truncated)).toThrow(ApiError);
    expect(() => decodeKubernetesProtobuf(envelope('example.com/v1', 'Widget', []))).toThrow(ApiError);
  });
});
