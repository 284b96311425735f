import fields from './k8s-proto-fields.json' with { type: 'json' };
import { ApiError, badRequest } from '../api-error.js';

type Field = [name: string, type: string, label: 'optional' | 'repeated' | 'map', mapValue?: string];
const MESSAGES = fields as unknown as Record<string, Record<string, Field>>;

/** The 4-byte prefix of Kubernetes protobuf bodies (`k8s\0`), before a `runtime.Unknown`. */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1.';

class Reader {
  pos = 0;
  constructor(
    readonly buf: Buffer,
    readonly end = buf.length,
  ) {}

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.end || shift > 63n) throw badRequest('protobuf: truncated or malformed varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }

  bytes(): Buffer {
    const n = Number(this.varint());
    if (n < 0 || this.pos + n > this.end) throw badRequest('protobuf: length out of range');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw badRequest(`protobuf: unsupported wire type ${wire}`);
    if (this.pos > this.end) throw badRequest('protobuf: truncated field');
  }
}

function toSigned(v: bigint, bits: 32 | 64): number {
  return Number(BigInt.asIntN(bits, v));
}

function scalar(type: string, wire: number, r: Reader): unknown {
  switch (type) {
    case 'string':
      return r.bytes().toString('utf8');
    case 'bytes':
      return r.bytes().toString('base64');
    case 'bool':
      return r.varint() !== 0n;
    case 'int32':
      return toSigned(r.varint(), 32);
    case 'int64':
      return toSigned(r.varint(), 64);
    case 'uint32':
    case 'uint64':
      return Number(r.varint());
    case 'double': {
      const v = r.buf.readDoubleLE(r.pos);
      r.pos += 8;
      return v;
    }
    case 'float': {
      const v = r.buf.readFloatLE(r.pos);
      r.pos += 4;
      return v;
    }
    default:
      r.skip(wire);
      return undefined;
  }
}

function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  let s = ns / 1e9;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${Number(s.toFixed(9))}s`;
}

/** Messages whose JSON form is not their fields (custom marshallers of apimachinery). */
function special(type: string, buf: Buffer): { value: unknown } | undefined {
  switch (type) {
    case `${META}Time`:
    case `${META}MicroTime`: {
      const o = message(type, buf) as { seconds?: number; nanos?: number };
      if (!o.seconds && !o.nanos) return { value: null };
      const d = new Date((o.seconds ?? 0) * 1000 + Math.floor((o.nanos ?? 0) / 1e6));
      const iso = d.toISOString();
      return { value: type.endsWith('MicroTime') ? iso.replace(/\.(\d{3})Z$/, `.${String(Math.floor((o.nanos ?? 0) / 1000)).padStart(6, '0')}Z`) : iso.replace(/\.\d+Z$/, 'Z') };
    }
    case `${META}Duration`:
      return { value: goDuration((message(type, buf) as { duration?: number }).duration ?? 0) };
    case 'k8s.io.apimachinery.pkg.util.intstr.IntOrString': {
      const o = message(type, buf) as { type?: number; intVal?: number; strVal?: string };
      return { value: o.type === 1 ? (o.strVal ?? '') : (o.intVal ?? 0) };
    }
    case 'k8s.io.apimachinery.pkg.api.resource.Quantity':
      return { value: (message(type, buf) as { string?: string }).string ?? '0' };
    case 'k8s.io.apimachinery.pkg.runtime.RawExtension':
    case `${META}FieldsV1`: {
      const o = message(type, buf) as { raw?: string; Raw?: string };
      const raw = Buffer.from(o.raw ?? o.Raw ?? '', 'base64').toString('utf8');
      try {
        return { value: raw ? JSON.parse(raw) : null };
      } catch {
        throw badRequest(`protobuf: ${type} does not hold JSON`);
      }
    }
    default:
      return undefined;
  }
}

function value(type: string, wire: number, r: Reader): unknown {
  if (!MESSAGES[type]) return scalar(type, wire, r);
  const buf = r.bytes();
  const sp = special(type, buf);
  return sp ? sp.value : message(type, buf);
}

function mapEntry(valueType: string, buf: Buffer): [string, unknown] {
  const r = new Reader(buf);
  let key = '';
  let v: unknown = valueType === 'string' ? '' : valueType === 'bytes' ? '' : undefined;
  while (r.pos < r.end) {
    const tag = Number(r.varint());
    if (tag >>> 3 === 1) key = r.bytes().toString('utf8');
    else if (tag >>> 3 === 2) v = value(valueType, tag & 7, r);
    else r.skip(tag & 7);
  }
  return [key, v];
}

function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Decodes one message into the JSON the Go types would write (before omitempty). */
export function message(type: string, buf: Buffer): Record<string, unknown> {
  const def = MESSAGES[type];
  if (!def) throw badRequest(`protobuf: unknown message type ${type}`);
  const out: Record<string, unknown> = {};
  const r = new Reader(buf);
  while (r.pos < r.end) {
    const tag = Number(r.varint());
    const f = def[String(tag >>> 3)];
    const wire = tag & 7;
    if (!f) {
      r.skip(wire);
      continue;
    }
    const [name, ftype, label, mapValue] = f;
    if (label === 'map') {
      const [k, v] = mapEntry(mapValue!, r.bytes());
      const m = (out[name] ??= {}) as Record<string, unknown>;
      setKey(m, k, v);
    } else if (label === 'repeated') {
      const list = (out[name] ??= []) as unknown[];
      if (wire === 2 && !MESSAGES[ftype] && ftype !== 'string' && ftype !== 'bytes') {
        // A packed repeated scalar: one length-delimited run of values.
        const packed = new Reader(r.bytes());
        while (packed.pos < packed.end) list.push(scalar(ftype, ftype === 'double' ? 1 : ftype === 'float' ? 5 : 0, packed));
      } else list.push(value(ftype, wire, r));
    } else out[name] = value(ftype, wire, r);
  }
  return out;
}

function packageOf(apiVersion: string): string | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const short = group === '' ? 'core' : group!.split('.')[0]!;
  return `k8s.io.api.${short}.${version}`;
}

/**
 * Decodes a Kubernetes protobuf request body (`k8s\0` + `runtime.Unknown` wrapping the typed
 * object) into JSON with `apiVersion` and `kind`. Throws a 400 ApiError when it cannot.
 */
export function decodeKubernetesProtobuf(body: Buffer): Record<string, unknown> {
  if (body.length < 4 || !body.subarray(0, 4).equals(PROTOBUF_MAGIC)) throw badRequest('provided protobuf body does not start with the Kubernetes magic prefix');
  const unknown = message('k8s.io.apimachinery.pkg.runtime.Unknown', body.subarray(4)) as { typeMeta?: { apiVersion?: string; kind?: string }; raw?: string };
  const apiVersion = unknown.typeMeta?.apiVersion ?? '';
  const kind = unknown.typeMeta?.kind ?? '';
  const type = `${packageOf(apiVersion)}.${kind}`;
  if (!MESSAGES[type]) throw new ApiError('UnsupportedMediaType', `the sandbox cannot decode protobuf for ${apiVersion} ${kind}; send application/json`);
  const obj = message(type, Buffer.from(unknown.raw ?? '', 'base64'));
  return { apiVersion, kind, ...obj };
}
