/**
 * Applies a stored body patch (RFC 6902 `add`, `remove`, `replace`, as `diffJson` writes them and
 * as `rfc6902`'s `createPatch` wrote the oldest events) to `doc` in place, throwing where an
 * operation does not apply (`patch does not apply: …`).
 *
 * Why not `rfc6902`'s `applyPatch`, which stored bodies were read with before: its pointer passes
 * over the tokens `__proto__`, `constructor` and `prototype` without descending (a guard against
 * prototype pollution), so an operation through a map key of that name, which a custom resource may
 * hold, landed on the node above. Builds before 44b2f98 stored such patches; they read back wrong
 * until this reader. Here a pointer walks own properties only (`Object.hasOwn`: an inherited name
 * such as `constructor` is absent, as in the JSON), and a `__proto__` key is defined as a plain
 * property, never set as a prototype. Operation values are used as they are, not cloned: each patch
 * is parsed for the one application.
 */
export function applyStoredPatch(doc: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw new Error('patch does not apply: not an array of operations');
  for (const op of ops) applyOperation(doc, op as Operation);
  return doc;
}

interface Operation {
  readonly op: string;
  readonly path: string;
  readonly value?: unknown;
}

type Container = Record<string, unknown> | unknown[];

const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;
/** A reference token unescaped (RFC 6901: `~1` is `/`, then `~0` is `~`). */
const unescape = (token: string): string => (token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token);
const own = (node: unknown, key: string): unknown => (isContainer(node) && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined);
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

function fail(op: Operation, why: string): never {
  throw new Error(`patch does not apply: ${op.op} ${JSON.stringify(op.path)}: ${why}`);
}

/** Sets an own, plain property (a `__proto__` key defined as data, as `JSON.parse` makes it). */
function setOwn(node: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
  else node[key] = value;
}

function applyOperation(doc: unknown, op: Operation): void {
  if (typeof op !== 'object' || op === null || typeof op.path !== 'string') fail(op, 'not an operation');
  if (op.path === '' || !op.path.startsWith('/')) fail(op, 'the root cannot be patched in place');
  const tokens = op.path.slice(1).split('/').map(unescape);
  const key = tokens.pop()!;
  let parent: unknown = doc;
  for (const t of tokens) parent = own(parent, t);
  if (!isContainer(parent)) fail(op, 'no container there');
  const exists = Object.hasOwn(parent, key);
  switch (op.op) {
    case 'add': {
      if (!Object.hasOwn(op, 'value')) fail(op, 'no value');
      if (!Array.isArray(parent)) return setOwn(parent, key, op.value);
      if (key === '-') parent.push(op.value);
      else if (!ARRAY_INDEX.test(key) || Number(key) > parent.length) fail(op, 'no such index');
      else parent.splice(Number(key), 0, op.value);
      return;
    }
    case 'remove': {
      if (!exists || (Array.isArray(parent) && !ARRAY_INDEX.test(key))) fail(op, 'nothing there');
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      return;
    }
    case 'replace': {
      if (!Object.hasOwn(op, 'value')) fail(op, 'no value');
      if (Array.isArray(parent)) {
        if (!exists || !ARRAY_INDEX.test(key)) fail(op, 'no such index');
        parent[Number(key)] = op.value;
      } else {
        if (!exists) fail(op, 'nothing there');
        setOwn(parent, key, op.value);
      }
      return;
    }
    default:
      fail(op, 'an operation stored bodies never hold');
  }
}
