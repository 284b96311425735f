import { FIELD, type Path, type Value } from '../../../ssa-engine/src/index.js';
import { valueAt } from '../../../audit/src/index.js';
import { decodeParsedBody, type Body, type BodyEncoding } from './body.util.js';
import { pointerToken } from './json-diff.util.js';

/** Keys an event's object gets back from its event's columns, not from its stored body (see `rebuildObject`). */
const REBUILT = [
  ['metadata', 'resourceVersion'],
  ['metadata', 'managedFields'],
] as const;

const isPrefix = (a: readonly string[], b: readonly string[]): boolean => a.length <= b.length && a.every((s, i) => s === b[i]);

/** The JSON pointer (RFC 6901) of a path of keys, escaped as `diffJson` escapes them. */
const pointer = (keys: readonly string[]): string => keys.map((k) => '/' + pointerToken(k)).join('');

/**
 * Whether an operation at pointer `op` reaches the node at pointer `at` (one goes through or below
 * the other). Pointers compare token by token as strings: an escaped token holds no `/`.
 */
export const reaches = (op: string, at: string): boolean => op === at || op.startsWith(at + '/') || at.startsWith(op + '/') || op === '';

/**
 * What the text of a patch written by `encodeBody` (`JSON.stringify` of `{"op","path",…}`
 * operations, no spaces) must hold if one of its operations reaches the node at `at`: the path of
 * a node above it (`"path":"/spec"`), or a path starting with its own (`"path":"/spec/replicas`).
 * Only a filter before the patch is parsed: text that holds one is parsed and checked.
 */
function patchNeedles(at: string): string[] {
  const above: string[] = [];
  for (let i = at.indexOf('/', 1); i > 0; i = at.indexOf('/', i + 1)) above.push(`"path":${JSON.stringify(at.slice(0, i))}`);
  return [...above, `"path":${JSON.stringify(at).slice(0, -1)}`];
}

/** Whether a patch's text is as `encodeBody` writes it (compact), so that {@link patchNeedles} apply to it; else it is parsed. */
const compact = (json: string): boolean => json.startsWith('[{"op":"') && !json.includes('"path" ') && !json.includes('"path": ');

/**
 * What tells whether a snapshot patch reaches `path`: the JSON pointer of its leading field names
 * (`at`: an operation reaches the path where its own pointer goes through or below it, see
 * `reaches`) and the texts a compact patch must hold for one to ({@link patchNeedles}). `null` for
 * a path whose value includes what the event's columns put back (`metadata.resourceVersion`,
 * `metadata.managedFields`): its value is not the stored body's.
 */
export function patchFilterOf(path: Path): { at: string; needles: string[] } | null {
  const names: string[] = [];
  for (const pe of path) {
    if (pe.kind !== FIELD) break;
    names.push(pe.name);
  }
  if (REBUILT.some((r) => isPrefix(r, names) || isPrefix(names, r))) return null;
  const at = pointer(names);
  return { at, needles: patchNeedles(at) };
}

/**
 * The value of `path` in the object of every event of a chain (its stored bodies, oldest first,
 * starting with a full snapshot), without rebuilding the bodies where it can tell the value is the
 * snapshot's: a snapshot patch none of whose operations reaches the path (an operation on a node
 * the path goes through or below) leaves it as it is in the snapshot. Where one does, the body is
 * rebuilt as a read would. Only the path's leading field names are compared (a list item's key is
 * not a pointer token), so an operation anywhere in a list the path enters counts as reaching it.
 * `null` where it cannot answer so: a chain of patches on previous bodies (written by earlier
 * versions), a chain not starting with a snapshot, or a path whose value includes what the event's
 * columns put back (`metadata.resourceVersion`, `metadata.managedFields`).
 */
export function pathValuesAlongChain(parts: readonly { encoding: BodyEncoding; json: string }[], path: Path): (Value | undefined)[] | null {
  const filter = patchFilterOf(path);
  if (filter === null || parts[0]?.encoding !== 'full') return null;
  const { at, needles } = filter;
  const out: (Value | undefined)[] = [];
  let snapshot = '';
  let snapshotValue: Value | undefined;
  for (const part of parts) {
    if (part.encoding === 'full') {
      snapshot = part.json;
      snapshotValue = valueAt(JSON.parse(part.json) as Body, path);
      out.push(snapshotValue);
    } else if (part.encoding === 'snapshot-patch') {
      if (compact(part.json) && !needles.some((n) => part.json.includes(n))) {
        out.push(snapshotValue);
        continue;
      }
      const ops = JSON.parse(part.json) as { path: string; from?: string }[];
      const reached = ops.some((op) => op.from !== undefined || reaches(op.path, at));
      out.push(reached ? valueAt(decodeParsedBody([{ encoding: 'full', doc: JSON.parse(snapshot) }, { encoding: 'snapshot-patch', doc: ops }]), path) : snapshotValue);
    } else {
      return null;
    }
  }
  return out;
}
