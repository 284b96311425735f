import { sha256Hex } from '../../common/src/index.js';

/** The ingest shard of an object: an object always lands in the same ordered lane. */
export function shardOf(cluster: string, uid: string, shards: number): number {
  return parseInt(sha256Hex(`${cluster}\u0000${uid}`).slice(0, 8), 16) % shards;
}

/** A deterministic job id from its parts (BullMQ ids may not contain ":"). */
export function jobId(prefix: string, parts: readonly string[]): string {
  return `${prefix}-${sha256Hex(parts.join('\u0000')).slice(0, 32)}`;
}
