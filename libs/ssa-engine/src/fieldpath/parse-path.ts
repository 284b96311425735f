import { SsaEngineError } from '../errors.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import type { Value } from '../value/value.js';
import type { Path } from './field-set.js';
import { fieldName, indexElement, keyElement, parsePE, valueElement, type KeyPair, type PathElement } from './path-element.js';

/** A malformed path string: `invalid-path`, with the 0-based character position of the problem. */
export class PathParseError extends SsaEngineError {
  override readonly name: string = 'PathParseError';
  constructor(
    readonly input: string,
    readonly position: number,
    reason: string,
  ) {
    super('invalid-path', `invalid path ${JSON.stringify(input)} at position ${position}: ${reason}`, input);
  }
}

const SIMPLE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'" };
const NUMBER_RE = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const INDEX_RE = /[0-9]+(?=\])/y;

/** A cursor over the input; every failure names its position. */
class Scanner {
  pos = 0;
  /** True when a number was written in exponent form (`1e+06`): the element then prints as floats. */
  floats = false;
  constructor(readonly s: string) {}

  fail(reason: string, at = this.pos): never {
    throw new PathParseError(this.s, at, reason);
  }
  get done(): boolean {
    return this.pos >= this.s.length;
  }
  peek(): string {
    return this.s[this.pos] ?? '';
  }
  expect(ch: string): void {
    if (this.s[this.pos] !== ch) this.fail(this.done ? `expected ${JSON.stringify(ch)}, got end of input` : `expected ${JSON.stringify(ch)}, got ${JSON.stringify(this.peek())}`);
    this.pos++;
  }

  /** A value as Go's `%v` prints it in a human path: Go-quoted string, number, true/false/null, `[v,…]`. */
  value(): Value {
    const c = this.peek();
    if (c === '"') return this.goString();
    if (c === '[') {
      this.pos++;
      const items: Value[] = [];
      if (this.peek() === ']') {
        this.pos++;
        return items;
      }
      for (;;) {
        items.push(this.value());
        if (this.peek() === ']') {
          this.pos++;
          return items;
        }
        this.expect(',');
      }
    }
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.s.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    NUMBER_RE.lastIndex = this.pos;
    const m = NUMBER_RE.exec(this.s);
    if (m) {
      this.pos += m[0].length;
      // Only an exponent tells a float64 print apart (`1e+06` vs `1000000`); `0.5` prints alike either way.
      if (/[eE]/.test(m[0])) this.floats = true;
      return Number(m[0]);
    }
    return this.fail(this.done ? 'expected a value, got end of input' : `expected a value, got ${JSON.stringify(c)}`);
  }

  /** A Go double-quoted string literal (`strconv.Quote` output and the escapes Go accepts). */
  goString(): string {
    const start = this.pos;
    this.expect('"');
    let out = '';
    for (;;) {
      if (this.done) this.fail('unterminated string', start);
      const c = this.s[this.pos++]!;
      if (c === '"') return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const at = this.pos - 1;
      const e = this.s[this.pos++] ?? '';
      if (e in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[e];
      else if (e === 'x' || e === 'u' || e === 'U') {
        const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = this.s.slice(this.pos, this.pos + n);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) this.fail(`invalid \\${e} escape`, at);
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff) this.fail('escape out of the Unicode range', at);
        out += String.fromCodePoint(cp);
        this.pos += n;
      } else if (/[0-7]/.test(e)) {
        const oct = this.s.slice(this.pos - 1, this.pos + 2);
        if (!/^[0-7]{3}$/.test(oct)) this.fail('invalid octal escape', at);
        out += String.fromCharCode(parseInt(oct, 8));
        this.pos += 2;
      } else this.fail(`invalid escape \\${e}`, at);
    }
  }
}

function stepType(t: ResolvedType | undefined, pe: PathElement): ResolvedType | undefined {
  if (!t) return undefined;
  if (pe.kind === 0) {
    const m = t.map;
    return m ? (m.fields.get(pe.name)?.type ?? m.elementType) : undefined;
  }
  return t.list?.elementType;
}

/**
 * Reads a field name after `.`. Without a type (or where the type declares the segment as a field,
 * or where its values are maps) the name ends at the next `.` or `[`. Where the current map has no
 * such declared field and its values are not maps (`labels`, `annotations`), the rest up to `[` or
 * the end is one key: `.metadata.labels.app.kubernetes.io/name`.
 */
function readFieldName(sc: Scanner, t: ResolvedType | undefined): string {
  const s = sc.s;
  const start = sc.pos;
  let end = start;
  while (end < s.length && s[end] !== '.' && s[end] !== '[') end++;
  let name = s.slice(start, end);
  const m = t?.map;
  if (m && !m.fields.has(name) && m.elementType && !m.elementType.map && s[end] === '.') {
    while (end < s.length && s[end] !== '[') end++;
    name = s.slice(start, end);
  }
  if (name === '') sc.fail('empty field name');
  sc.pos = end;
  return name;
}

/** Reads `[…]` after the `[` : `[=v]`, `[0]` or `[k=v,…]`. */
function readBracket(sc: Scanner): PathElement {
  sc.floats = false;
  if (sc.peek() === '=') {
    sc.pos++;
    const v = sc.value();
    sc.expect(']');
    return valueElement(v, sc.floats);
  }
  INDEX_RE.lastIndex = sc.pos;
  const m = INDEX_RE.exec(sc.s);
  if (m) {
    sc.pos += m[0].length + 1;
    const n = Number(m[0]);
    if (!Number.isSafeInteger(n)) sc.fail('list index too large');
    return indexElement(n);
  }
  const pairs: KeyPair[] = [];
  const seen = new Set<string>();
  for (;;) {
    const start = sc.pos;
    while (!sc.done && !'=,]['.includes(sc.peek())) sc.pos++;
    const name = sc.s.slice(start, sc.pos);
    if (name === '') sc.fail('expected a key field name, an index or "="');
    if (seen.has(name)) sc.fail(`duplicate key field ${JSON.stringify(name)}`, start);
    seen.add(name);
    sc.expect('=');
    pairs.push({ name, value: sc.value() });
    if (sc.peek() === ']') {
      sc.pos++;
      return keyElement(pairs, sc.floats);
    }
    sc.expect(',');
  }
}

/**
 * Parses a path in the human form kubectl prints (01 §2.5): `.spec.containers[name="nginx"].image`,
 * `[port=80,protocol="TCP"]`, `[="v"]`, `[0]`. Values are Go-quoted strings (with Go's escapes),
 * numbers, `true`/`false`/`null` and lists. With `type` (the object's type), field names may
 * contain dots where the schema says the map's keys are not fields (labels, annotations); without
 * it a name ends at every `.`. Throws `PathParseError` (code `invalid-path`) with the position.
 *
 * @example parseHumanPath('.metadata.labels.app.kubernetes.io/name', deploymentType)
 */
export function parseHumanPath(str: string, type?: ResolvedType): Path {
  const sc = new Scanner(str);
  const path: PathElement[] = [];
  let t = type;
  while (!sc.done) {
    const c = sc.peek();
    let pe: PathElement;
    if (c === '.') {
      sc.pos++;
      pe = fieldName(readFieldName(sc, t));
    } else if (c === '[') {
      sc.pos++;
      pe = readBracket(sc);
    } else pe = sc.fail(`expected "." or "[", got ${JSON.stringify(c)}`);
    path.push(pe);
    t = stepType(t, pe);
  }
  return path;
}

/** Skips one JSON value starting at `i` (strings with escapes, nested brackets); returns its end. */
function skipJson(s: string, i: number): number {
  let depth = 0;
  let inString = false;
  for (; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '.' && depth === 0 && /^\.[fkvi]:/.test(s.slice(i, i + 3))) return i;
    if (depth < 0) return i;
  }
  return i;
}

/**
 * Parses a path in dotted FieldsV1 form: `f:spec.f:containers.k:{"name":"nginx"}.f:image`. The
 * JSON after `k:` and `v:` is scanned, so dots inside it do not split; a field name (`f:`) ends at
 * a `.` followed by an element prefix (`f:`, `k:`, `v:`, `i:`), so `f:app.kubernetes.io/name` is one
 * name. Throws `PathParseError` (code `invalid-path`) with the position of the bad element.
 */
export function parseFieldsV1Path(str: string): Path {
  const path: PathElement[] = [];
  if (str === '') return path;
  let i = 0;
  for (;;) {
    const start = i;
    const kind = str.slice(i, i + 2);
    let end: number;
    if (kind === 'k:' || kind === 'v:') end = skipJson(str, i + 2);
    else {
      end = i;
      while (end < str.length && !(str[end] === '.' && /^\.[fkvi]:/.test(str.slice(end, end + 3)))) end++;
    }
    const text = str.slice(start, end);
    let pe: PathElement | undefined;
    try {
      pe = parsePE(text);
    } catch (e) {
      throw new PathParseError(str, start, (e as Error).message);
    }
    if (!pe) throw new PathParseError(str, start, `unknown path element type ${JSON.stringify(text.slice(0, 2))}`);
    path.push(pe);
    if (end >= str.length) return path;
    if (str[end] !== '.') throw new PathParseError(str, end, `expected "." after an element, got ${JSON.stringify(str[end])}`);
    i = end + 1;
    if (i >= str.length) throw new PathParseError(str, i, 'expected a path element, got end of input');
  }
}

const FIELDS_V1_START = /^[fkvi]:/;

/**
 * Parses a path in either form: the FieldsV1 dotted form when it starts with an element prefix
 * (`f:`, `k:`, `v:`, `i:`), the human form otherwise. See `parseHumanPath` for the role of `type`.
 */
export function parsePath(text: string, type?: ResolvedType): Path {
  return FIELDS_V1_START.test(text) ? parseFieldsV1Path(text) : parseHumanPath(text, type);
}
