import { EVERY_PATH, changePathsOfPatch, patchOpDigests, type PatchOpDigest } from './change-paths.util.js';
import { diffJson } from './json-diff.util.js';
import { applyStoredPatch } from './json-patch.util.js';
import type { KubeObject } from '../../../common/src/index.js';

/**
 * How an event's body is stored: `full`, the body whole (a snapshot); `snapshot-patch`, an RFC 6902
 * patch against the object's last snapshot (what the appender writes since the tip keeps only the
 * snapshot's hash); `json-patch`, a patch against the previous event's body (written before that,
 * still read: such chains are rebuilt patch by patch).
 */
export type BodyEncoding = 'full' | 'snapshot-patch' | 'json-patch';
export type Body = Record<string, unknown>;

/** The body as stored: the object without `metadata.managedFields` and `metadata.resourceVersion` (both are event columns). */
export function storedBody(object: KubeObject): Body {
  const { managedFields: _mf, resourceVersion: _rv, ...metadata } = object.metadata;
  return { ...(object as unknown as Body), metadata };
}

/**
 * Whether a pointer goes through (not only ends at) a key that `rfc6902`'s pointer passes over without
 * descending: the readers of builds before `applyStoredPatch` would misread such a patch, so those
 * bodies are still stored whole (a rollout runs both builds' readers).
 */
const throughSkippedKey = (pointer: string): boolean => {
  const tokens = pointer.split('/');
  return tokens.slice(1, -1).some((t) => t === 'constructor' || t === 'prototype' || t === '__proto__');
};

/** A body as stored: its encoding and JSON, and the summaries of its paths (see `encodeBody`). */
export interface EncodedBody {
  readonly encoding: 'full' | 'snapshot-patch';
  readonly json: string;
  /** The summary of a patch's paths (`patchPathsOf`); `null` for a snapshot. */
  readonly paths: bigint | null;
  /** The operations of a patch, as the next event compares its own with them; none for a snapshot. */
  readonly ops: PatchOpDigest[];
  /** The summary of the paths whose value can differ from the event before's (`events.change_paths`). */
  readonly changePaths: bigint;
}

/**
 * Encodes a body as a full snapshot or as an RFC 6902 patch against the object's last snapshot,
 * with the summary of a patch's paths and of the paths whose value changed since the event before,
 * whose patch's operations are `previous` (none where it is the snapshot; `null`: not known, or the
 * object has no value before, as at its first event and after a deletion).
 */
export function encodeBody(snapshot: Body | null, next: Body, full: boolean, previous: readonly PatchOpDigest[] | null): EncodedBody {
  if (snapshot === null) return { encoding: 'full', json: JSON.stringify(next), paths: null, ops: [], changePaths: EVERY_PATH };
  const patch = diffJson(snapshot, next);
  // JSON.stringify of the array, element by element (the same text): each operation's text is its digest's input.
  const texts = patch.map((op) => JSON.stringify(op));
  const ops = patchOpDigests(patch, texts);
  // A new snapshot compares with the event before as its patch from the snapshot before would: both are on that one.
  const changePaths = changePathsOfPatch(previous, ops);
  const json = `[${texts.join(',')}]`;
  // A patch never replaces the root, and never carries a "__proto__" key or goes through a
  // "constructor" or "prototype" key (earlier builds' readers, on rfc6902's pointer, would drop the
  // key, set a prototype, or land on the node above): store those bodies whole (JSON.parse keeps
  // such keys as plain ones).
  if (full || json.includes('"__proto__"') || patch.some((op) => op.path === '' || throughSkippedKey(op.path))) {
    return { encoding: 'full', json: JSON.stringify(next), paths: null, ops: [], changePaths };
  }
  // The patch's summary is its operations' (patchPathsOf of each, already taken for their digests).
  return { encoding: 'snapshot-patch', json, paths: BigInt.asIntN(64, ops.reduce((bits, op) => bits | op.bits, 0n)), ops, changePaths };
}

function patched(body: Body, ops: unknown): Body {
  return applyStoredPatch(body, ops) as Body;
}

/** Rebuilds the last body of a chain (its last full snapshot, then the patches after it, oldest first). */
export function decodeBody(parts: readonly { encoding: BodyEncoding; json: string }[]): Body {
  return decodeParsedBody(parts.map((p) => ({ encoding: p.encoding, doc: JSON.parse(p.json) as unknown })));
}

/**
 * `decodeBody` of parts already parsed (as Postgres returns a `json` column); the parts are used up.
 * A snapshot patch needs only the snapshot; `json-patch` parts (older events) apply one after another.
 */
export function decodeParsedBody(parts: readonly { encoding: BodyEncoding; doc: unknown }[]): Body {
  const from = parts.findLastIndex((p) => p.encoding === 'full');
  if (from < 0) throw new Error('a body chain must start with a full snapshot');
  const last = parts.length - 1;
  if (parts[last]!.encoding === 'snapshot-patch') return patched(parts[from]!.doc as Body, parts[last]!.doc);
  let body = parts[from]!.doc as Body;
  for (const p of parts.slice(from + 1)) {
    if (p.encoding !== 'json-patch') throw new Error('a chain ending in a patch on the previous body holds a snapshot patch before it');
    body = patched(body, p.doc);
  }
  return body;
}

/**
 * The bodies of a chain (a full snapshot, then patches, oldest first), one independent body per
 * part that `wanted(index)` asks for (every part by default; `undefined` for the others). A snapshot
 * patch is applied only where asked for (to a copy of its snapshot); a body is kept for the next
 * part only where that part is a patch on the previous body.
 */
export function decodeBodyChain(parts: readonly { encoding: BodyEncoding; json: string }[], wanted: (index: number) => boolean = () => true): (Body | undefined)[] {
  const out: (Body | undefined)[] = [];
  let snapshot: string | null = null;
  let body: Body | null = null;
  parts.forEach((p, i) => {
    const nextOnThis = parts[i + 1]?.encoding === 'json-patch';
    const needed = wanted(i) || nextOnThis;
    if (p.encoding === 'full') {
      snapshot = p.json;
      body = needed ? (JSON.parse(p.json) as Body) : null;
    } else if (p.encoding === 'snapshot-patch') {
      if (snapshot === null) throw new Error('a body chain must start with a full snapshot');
      body = needed ? patched(JSON.parse(snapshot) as Body, JSON.parse(p.json)) : null;
    } else {
      if (body === null) throw new Error('a patch on the previous body must follow a body');
      body = patched(body, JSON.parse(p.json));
    }
    if (!wanted(i)) out.push(undefined);
    else out.push(nextOnThis ? structuredClone(body!) : body!);
  });
  return out;
}
