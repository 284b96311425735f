import { createHash } from 'node:crypto';
import type { PatchOperation } from './json-diff.util.js';
import { patchPathsOf } from './patch-paths.util.js';

/**
 * `events.change_paths`: a 64-bit summary (the Bloom filter of `patchPathsOf`) of the paths whose
 * value can differ between an event's body and the body of the object's event before it, so that a
 * field's history reads only the events at which its value can change, found without reading any
 * body (where a path's mask, `pathsMask`, shares no bit with it, the value is the event before's).
 *
 * Both bodies are their snapshot with a patch applied (a snapshot is its own, with no operation), and
 * the operations `diffJson` writes are on disjoint nodes. On the same snapshot, a path's value
 * differs only where the operations reaching it differ: one of them is in one patch and not in the
 * other (compared by their exact text), or the ones both hold come in another order (every bit,
 * though `diffJson`'s operations commute). A new snapshot is compared so too, as its patch from the
 * snapshot before (the one the event before's patch is on). Every bit where the event before is not
 * known: an object's first event, a deletion and every event of an object deleted before (a deleted
 * object has no value), the first event after one written by a version that kept no record of its
 * operations, the event after a patch of more than {@link KEPT_OPS} operations.
 */

/** Every bit: the value of every path can differ. */
export const EVERY_PATH = -1n;

/** One operation of a snapshot patch, as the next event compares its own: its text's digest and its paths' summary. */
export interface PatchOpDigest {
  /** The first {@link DIGEST_BYTES} bytes of the SHA-256 of the operation's JSON text. */
  readonly digest: string;
  /** `patchPathsOf` of the operation alone. */
  readonly bits: bigint;
}

/** 128 bits: two operations' texts that differ never compare equal, even made to (a birthday attack costs 2^64). */
const DIGEST_BYTES = 16;
const OP_BYTES = DIGEST_BYTES + 8;
const SEQ_BYTES = 8;

/**
 * The most operations whose digests the object's row keeps for its next event: a patch with more
 * leaves the next event's summary at every bit. 24 bytes an operation, less than the operation's
 * own text in the patch's blob, and the row stays under 7 KB.
 */
export const KEPT_OPS = 256;

/** The digest and paths of each operation of a patch (their texts are the patch's elements, `JSON.stringify` of each). */
export function patchOpDigests(ops: readonly PatchOperation[], texts: readonly string[]): PatchOpDigest[] {
  return ops.map((op, i) => ({
    digest: createHash('sha256').update(texts[i]!).digest().subarray(0, DIGEST_BYTES).toString('latin1'),
    bits: patchPathsOf([op]),
  }));
}

/** The operations of `a` that `b` holds too (as many times as it does), in `a`'s order, and the paths of the others. */
function split(a: readonly PatchOpDigest[], b: readonly PatchOpDigest[]): { shared: PatchOpDigest[]; only: bigint } {
  const left = new Map<string, number>();
  for (const op of b) left.set(op.digest, (left.get(op.digest) ?? 0) + 1);
  const shared: PatchOpDigest[] = [];
  let only = 0n;
  for (const op of a) {
    const n = left.get(op.digest) ?? 0;
    if (n > 0) {
      left.set(op.digest, n - 1);
      shared.push(op);
    } else {
      only |= op.bits;
    }
  }
  return { shared, only };
}

/**
 * The change summary of an event whose body is `current` applied to the object's snapshot (its
 * patch; for a new snapshot, its patch from the snapshot before): `previous` are the operations of
 * the event before's patch on that same snapshot (none where that event is the snapshot; `null`: not
 * known).
 */
export function changePathsOfPatch(previous: readonly PatchOpDigest[] | null, current: readonly PatchOpDigest[]): bigint {
  if (previous === null) return EVERY_PATH;
  const now = split(current, previous);
  const before = split(previous, current);
  // The operations both hold, in another order: every bit.
  if (now.shared.some((op, i) => op.digest !== before.shared[i]!.digest)) return EVERY_PATH;
  return BigInt.asIntN(64, now.only | before.only);
}

/**
 * The operations as the object's row keeps them (`objects.last_patch_ops`), after the row's last
 * sequence (the statement that writes it puts that in front): `null` for more than {@link KEPT_OPS}
 * or not known.
 */
export function encodePatchOps(ops: readonly PatchOpDigest[] | null): Buffer | null {
  if (ops === null || ops.length > KEPT_OPS) return null;
  const out = Buffer.alloc(ops.length * OP_BYTES);
  ops.forEach((op, i) => {
    out.write(op.digest, i * OP_BYTES, DIGEST_BYTES, 'latin1');
    out.writeBigInt64BE(op.bits, i * OP_BYTES + DIGEST_BYTES);
  });
  return out;
}

/**
 * The operations of the object's last event as its row keeps them, where they are that event's:
 * `null` where the row keeps none, or keeps those of another event than its `lastSeq` (a version
 * that does not write them appended since).
 */
export function decodePatchOps(kept: Buffer | null, lastSeq: string | null): PatchOpDigest[] | null {
  if (kept === null || lastSeq === null || kept.length < SEQ_BYTES || (kept.length - SEQ_BYTES) % OP_BYTES !== 0) return null;
  if (kept.readBigInt64BE(0) !== BigInt(lastSeq)) return null;
  const ops: PatchOpDigest[] = [];
  for (let at = SEQ_BYTES; at < kept.length; at += OP_BYTES) {
    ops.push({ digest: kept.subarray(at, at + DIGEST_BYTES).toString('latin1'), bits: kept.readBigInt64BE(at + DIGEST_BYTES) });
  }
  return ops;
}
