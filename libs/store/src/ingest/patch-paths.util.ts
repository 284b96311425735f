/**
 * A 64-bit summary of the paths a snapshot patch's operations are on (`events.patch_paths`), so that
 * a read of one path's values skips, without reading its body, every patch none of whose operations
 * reaches the path (an operation reaches a node when it is on it, below it or above it: see
 * `pathValuesAlongChain`). A Bloom filter of one bit per item: a patch that reaches a path always
 * has a bit of the path's {@link pathsMask}; one that does not may have one too (its body is then
 * read and checked).
 *
 * The items of an operation on pointer `/t1/…/tn`: every prefix of up to {@link DEPTH} tokens
 * (`P`, what a path at or above the operation matches) and, for an operation above that depth, the
 * pointer itself (`E`, what a path below the operation matches). An operation on the root, or one
 * that copies or moves (reaching its source too), sets every bit.
 */

/** How many leading tokens of an operation's pointer are summarized as prefixes. */
const DEPTH = 3;
const ALL = -1n;

/** The bit of an item: FNV-1a of its text, folded to 0–63. */
function bit(item: string): bigint {
  let h = 0x811c9dc5;
  for (let i = 0; i < item.length; i++) {
    h ^= item.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return 1n << BigInt((h ^ (h >>> 16)) & 63);
}

/** The tokens of a JSON pointer (RFC 6901, still escaped: an escaped token holds no `/`). */
const tokens = (pointer: string): string[] => pointer.split('/').slice(1);

/** The summary of a patch's operations, as Postgres's signed `bigint`. */
export function patchPathsOf(ops: readonly { readonly path: string; readonly from?: string }[]): bigint {
  let bits = 0n;
  for (const op of ops) {
    if (op.from !== undefined || op.path === '') return ALL;
    const t = tokens(op.path);
    for (let j = 1; j <= Math.min(t.length, DEPTH); j++) bits |= bit(`P${t.slice(0, j).join('/')}`);
    if (t.length < DEPTH) bits |= bit(`E${t.join('/')}`);
  }
  return BigInt.asIntN(64, bits);
}

/**
 * The bits one of which the summary of every patch reaching the node at JSON pointer `at` has: its
 * prefix of up to {@link DEPTH} tokens (an operation on it or below it), and each node above it
 * within that depth (an operation there). Every bit for the root.
 */
export function pathsMask(at: string): bigint {
  if (at === '') return ALL;
  const t = tokens(at);
  let mask = bit(`P${t.slice(0, Math.min(t.length, DEPTH)).join('/')}`);
  for (let j = 1; j < Math.min(t.length, DEPTH); j++) mask |= bit(`E${t.slice(0, j).join('/')}`);
  return BigInt.asIntN(64, mask);
}
