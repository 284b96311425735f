/**
 * Go's `encoding/json` round trip of a Kubernetes object: decode a JSON value into a Go type (as
 * described by a `GoJsonEncodingDocument`), encode it again, and return the plain JS value whose
 * `JSON.stringify` is the text Go writes (Go's HTML escaping aside).
 *
 * The rules, per value kind:
 * - struct fields are written in table order; keys the type does not declare are dropped (the
 *   apiserver's decoder is case-sensitive);
 * - a field absent from the input, or `null` for a non-pointer scalar or struct, is the Go zero value;
 * - `omitempty` drops `false`, `0`, `""`, a nil pointer and a nil or empty slice/map/bytes, never a
 *   struct (so `status: {}`, `resources: {}` and a zero `IntOrString`/`Quantity` stay);
 * - `omitzero` drops the zero value of the type (a struct whose fields are all zero, a zero Time);
 * - a nil pointer, slice or map that is not omitted is written as `null`;
 * - map keys are written sorted (by UTF-8 bytes);
 * - types with their own encoder: Time, MicroTime, Quantity, IntOrString, RawExtension, FieldsV1.
 */
import { compareStrings } from '../value/compare.js';
import { MAX_DEPTH, SsaEngineError } from '../errors.js';
import {
  GO_FIELDS_V1,
  GO_INT_OR_STRING,
  GO_MICRO_TIME,
  GO_QUANTITY,
  GO_RAW_EXTENSION,
  GO_TIME,
  fieldTypeRef,
  type GoJsonEncodingDocument,
  type GoJsonField,
  type GoTypeRef,
} from './go-json-encoding.js';
import { formatGoMicroTime, formatGoTime, isZeroGoTime, parseGoTime } from './go-time.js';
import { canonicalQuantity } from './quantity.js';

/** An encoded value and what `omitempty` / `omitzero` need to know about the Go value. */
interface Encoded {
  readonly json: unknown;
  /** `omitempty`: false, 0, "", nil pointer/interface, nil or empty slice/map. Never a struct. */
  readonly empty: boolean;
  /** `omitzero`: the zero value of the type (`IsZero()` where the type has one). */
  readonly zero: boolean;
}

const NIL: Encoded = { json: null, empty: true, zero: true };

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets an own enumerable property; safe for untrusted keys such as `__proto__`. */
function put(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

/** Go sorts map keys by their UTF-8 bytes, which is code point order (not UTF-16 unit order). */
export const compareGoStrings: (a: string, b: string) => number = compareStrings;

function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

class GoJsonCodec {
  constructor(private readonly doc: GoJsonEncodingDocument) {}

  private fail(path: string, message: string): SsaEngineError {
    return new SsaEngineError('invalid-object', `${path || '<root>'}: ${message}`, path);
  }

  private mismatch(path: string, value: unknown, goType: string): SsaEngineError {
    return this.fail(path, `cannot unmarshal ${jsonKind(value)} into Go value of type ${goType}`);
  }

  fields(name: string): readonly GoJsonField[] | string {
    const t = Object.hasOwn(this.doc.types, name) ? this.doc.types[name] : undefined;
    if (!t) throw new SsaEngineError('unknown-kind', `no Go JSON encoding for type ${name}`);
    return 'fields' in t ? t.fields : name;
  }

  /** Encodes `value` (`undefined` = absent) as Go type `t`. */
  value(t: GoTypeRef, value: unknown, path: string, depth: number): Encoded {
    if (depth > MAX_DEPTH) throw new SsaEngineError('too-deep', `${path}: nesting deeper than ${MAX_DEPTH}`, path);
    switch (t.kind) {
      case 'string':
        if (value === undefined || value === null) return { json: '', empty: true, zero: true };
        if (typeof value !== 'string') throw this.mismatch(path, value, 'string');
        return { json: value, empty: value === '', zero: value === '' };
      case 'int':
        if (value === undefined || value === null) return { json: 0, empty: true, zero: true };
        if (typeof value !== 'number' || !Number.isInteger(value)) throw this.mismatch(path, value, 'int');
        return { json: value === 0 ? 0 : value, empty: value === 0, zero: value === 0 };
      case 'float':
        if (value === undefined || value === null) return { json: 0, empty: true, zero: true };
        if (typeof value !== 'number') throw this.mismatch(path, value, 'float64');
        return { json: value === 0 ? 0 : value, empty: value === 0, zero: value === 0 };
      case 'bool':
        if (value === undefined || value === null) return { json: false, empty: true, zero: true };
        if (typeof value !== 'boolean') throw this.mismatch(path, value, 'bool');
        return { json: value, empty: !value, zero: !value };
      case 'bytes':
        // []byte is base64 text in JSON; Go re-encodes the decoded bytes, which gives the same text.
        if (value === undefined || value === null) return NIL;
        if (typeof value !== 'string') throw this.mismatch(path, value, '[]byte');
        return { json: value, empty: value === '', zero: false };
      case 'interface':
        if (value === undefined || value === null) return NIL;
        return { json: this.untyped(value, path, depth), empty: false, zero: false };
      case 'pointer': {
        if (value === undefined || value === null) return NIL;
        const inner = this.value(this.elem(t, path), value, path, depth);
        return { json: inner.json, empty: false, zero: false };
      }
      case 'slice': {
        if (value === undefined || value === null) return NIL;
        if (!Array.isArray(value)) throw this.mismatch(path, value, 'slice');
        const elem = this.elem(t, path);
        const json = value.map((v: unknown, i) => this.value(elem, v, `${path}[${i}]`, depth + 1).json);
        return { json, empty: json.length === 0, zero: false };
      }
      case 'map': {
        if (value === undefined || value === null) return NIL;
        if (!isObject(value)) throw this.mismatch(path, value, 'map');
        const elem = this.elem(t, path);
        const out: JsonObject = {};
        const keys = Object.keys(value).sort(compareGoStrings);
        for (const k of keys) put(out, k, this.value(elem, value[k], `${path}[${JSON.stringify(k)}]`, depth + 1).json);
        return { json: out, empty: keys.length === 0, zero: false };
      }
      case 'struct':
      case 'custom': {
        if (!t.name) throw this.fail(path, `the encoding table names no type for a ${t.kind} here`);
        const fields = this.fields(t.name);
        if (typeof fields === 'string') return this.custom(fields, value, path, depth);
        return this.struct(t.name, fields, value, path, depth);
      }
    }
  }

  /** Runs a value parser, putting `path` on the `invalid-object` error it throws. */
  private at<T>(path: string, parse: () => T): T {
    try {
      return parse();
    } catch (e) {
      if (e instanceof SsaEngineError && e.code === 'invalid-object') throw this.fail(path, e.message);
      throw e;
    }
  }

  private elem(t: GoTypeRef, path: string): GoTypeRef {
    if (!t.elem) throw this.fail(path, `the encoding table gives no element type for this ${t.kind}`);
    const e = t.elem;
    if ((e.kind === 'pointer' || e.kind === 'slice' || e.kind === 'map') && !e.elem) {
      throw this.fail(path, `nested ${t.kind} of ${e.kind} is not described by the encoding table`);
    }
    return e;
  }

  struct(name: string, fields: readonly GoJsonField[], value: unknown, path: string, depth: number): Encoded {
    if (value !== undefined && value !== null && !isObject(value)) throw this.mismatch(path, value, name);
    const input = isObject(value) ? value : undefined;
    const out: JsonObject = {};
    let zero = true;
    for (const f of fields) {
      const v = input && Object.hasOwn(input, f.json) ? input[f.json] : undefined;
      const enc = this.value(fieldTypeRef(f), v, `${path}.${f.json}`, depth + 1);
      zero &&= enc.zero;
      if (f.omitzero && enc.zero) continue;
      if (f.omitempty && enc.empty) continue;
      put(out, f.json, enc.json);
    }
    return { json: out, empty: false, zero };
  }

  private custom(name: string, value: unknown, path: string, depth: number): Encoded {
    const absent = value === undefined || value === null;
    switch (name) {
      case GO_TIME:
      case GO_MICRO_TIME: {
        if (absent) return { json: null, empty: false, zero: true };
        if (typeof value !== 'string') throw this.mismatch(path, value, 'Time');
        const t = this.at(path, () => parseGoTime(value));
        const json = name === GO_TIME ? formatGoTime(t) : formatGoMicroTime(t);
        return { json, empty: false, zero: isZeroGoTime(t) };
      }
      case GO_QUANTITY: {
        if (absent) return { json: '0', empty: false, zero: true };
        if (typeof value !== 'string' && typeof value !== 'number') throw this.mismatch(path, value, 'Quantity');
        return { json: this.at(path, () => canonicalQuantity(value)), empty: false, zero: false };
      }
      case GO_INT_OR_STRING:
        if (absent) return { json: 0, empty: false, zero: true };
        if (typeof value === 'string') return { json: value, empty: false, zero: false };
        if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 0x7fffffff) {
          return { json: value === 0 ? 0 : value, empty: false, zero: value === 0 };
        }
        throw this.mismatch(path, value, 'IntOrString');
      case GO_RAW_EXTENSION:
      case GO_FIELDS_V1:
        // Opaque JSON, written back byte for byte: kept exactly as given (key order included).
        if (absent) return { json: null, empty: false, zero: true };
        return { json: this.raw(value, path, depth), empty: false, zero: false };
      default:
        throw new SsaEngineError('unknown-kind', `${path}: no JSON encoder for custom Go type ${name}`, path);
    }
  }

  /** A deep copy of opaque JSON, order preserved. */
  private raw(value: unknown, path: string, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new SsaEngineError('too-deep', `${path}: nesting deeper than ${MAX_DEPTH}`, path);
    if (Array.isArray(value)) return value.map((v: unknown) => this.raw(v, path, depth + 1));
    if (isObject(value)) {
      const out: JsonObject = {};
      for (const k of Object.keys(value)) put(out, k, this.raw(value[k], path, depth + 1));
      return out;
    }
    return value;
  }

  /** `interface{}`: decoded as generic JSON (maps then written with sorted keys). */
  private untyped(value: unknown, path: string, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new SsaEngineError('too-deep', `${path}: nesting deeper than ${MAX_DEPTH}`, path);
    if (Array.isArray(value)) return value.map((v: unknown) => this.untyped(v, path, depth + 1));
    if (isObject(value)) {
      const out: JsonObject = {};
      for (const k of Object.keys(value).sort(compareGoStrings)) put(out, k, this.untyped(value[k], path, depth + 1));
      return out;
    }
    return value;
  }
}

/**
 * Decodes `obj` into the Go type `typeName` of the encoding table `doc` and encodes it again, the
 * way the apiserver does (see the module comment for the rules). Returns a new plain object whose
 * key order and content are what Go writes. Throws `unknown-kind` when the table has no such type
 * and `invalid-object` when the object does not decode (with the offending path).
 */
export function encodeGoJson(doc: GoJsonEncodingDocument, typeName: string, obj: unknown): Record<string, unknown> {
  const codec = new GoJsonCodec(doc);
  const fields = codec.fields(typeName);
  if (typeof fields === 'string') {
    throw new SsaEngineError('unknown-kind', `${typeName} has its own JSON encoder; it is not an object type`);
  }
  if (!isObject(obj)) {
    throw new SsaEngineError('invalid-object', `cannot unmarshal ${jsonKind(obj)} into Go value of type ${typeName}`);
  }
  return codec.struct(typeName, fields, obj, '', 0).json as Record<string, unknown>;
}
