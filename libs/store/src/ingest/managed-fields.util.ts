import { sha256, type ManagedFieldsEntry } from '../../../common/src/index.js';

/** A content-addressed blob: the SHA-256 of the UTF-8 bytes of `json`. */
export interface Blob {
  readonly hash: Buffer;
  /** Kept as a string: encoded to bytes only if the blob is written (time-only observations never are). */
  readonly json: string;
}

export interface SplitManagedFields {
  /** One blob per entry, without its `time` (so identical entries share one blob). */
  readonly entries: readonly Blob[];
  /** A blob listing the entry hashes in order; its hash identifies the whole managed field set. */
  readonly list: Blob;
  /** The entries' `time` stamps, aligned with the list (null where absent). */
  readonly times: readonly (string | null)[];
}

export function blobOf(json: string): Blob {
  return { hash: sha256(json), json };
}

/**
 * Splits managedFields into content-addressed parts. Two observations whose entries differ only in
 * `time` get the same list hash. For now entries compare by their JSON, in order; a semantic
 * field-set comparison from the SSA engine can replace this later.
 */
export function splitManagedFields(managedFields: readonly ManagedFieldsEntry[] | undefined): SplitManagedFields {
  const entries: Blob[] = [];
  const times: (string | null)[] = [];
  for (const entry of managedFields ?? []) {
    const { time, ...rest } = entry;
    // Key order as the apiserver sends it (fixed struct order; fieldsV1 is passed through verbatim).
    entries.push(blobOf(JSON.stringify(rest)));
    times.push(time ?? null);
  }
  return { entries, list: blobOf(JSON.stringify(entries.map((e) => e.hash.toString('hex')))), times };
}
