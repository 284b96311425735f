import { canConvert } from '../conversion/converter.js';
import { note, type Note } from './notes.js';
import { managerRef, type DecodedSnapshot } from './snapshot.js';

/** How an entry at another API version than the observed object can be read. */
export type OtherVersionReading = 'convertible' | 'unconvertible';

/** One entry whose apiVersion differs from the observed object's. */
export interface OtherVersionEntry {
  readonly identity: string;
  readonly apiVersion: string;
  readonly reading: OtherVersionReading;
}

/**
 * Entries of a snapshot recorded at another API version than `apiVersion` (the version the object
 * was observed at), each `convertible` when the engine converts `kind` between the two versions
 * (e.g. HPA autoscaling/v1 ↔ v2) and `unconvertible` otherwise. Their sets are paths of *their*
 * version: reading them against the observed object's schema is wrong unless converted (07 §1.2).
 */
export function entriesAtOtherVersions(s: DecodedSnapshot, apiVersion: string, kind: string): OtherVersionEntry[] {
  const out: OtherVersionEntry[] = [];
  for (const e of s.entries.values()) {
    if (e.apiVersion === apiVersion) continue;
    out.push({ identity: e.identity, apiVersion: e.apiVersion, reading: canConvert(kind, apiVersion, e.apiVersion) ? 'convertible' : 'unconvertible' });
  }
  return out;
}

/**
 * The `entry-at-other-version` notes for a snapshot (one per entry): the entry is kept and its
 * paths are reported as recorded, with the reason they may not match the observed object's paths.
 */
export function otherVersionNotes(s: DecodedSnapshot, apiVersion: string, kind: string): Note[] {
  return entriesAtOtherVersions(s, apiVersion, kind).map((o) => {
    const e = s.entries.get(o.identity)!;
    const message =
      o.reading === 'convertible'
        ? `${e.manager} is recorded at ${o.apiVersion}, the object was observed at ${apiVersion}: its paths are ${o.apiVersion} paths; the apiserver compares them after converting the object to ${o.apiVersion}`
        : `${e.manager} is recorded at ${o.apiVersion}, which cannot be converted to ${apiVersion} here: its paths are kept as recorded and not matched against the object; the apiserver drops the entry on the next write if ${o.apiVersion} is no longer served`;
    return note('entry-at-other-version', message, [managerRef(e)], e.set.toHumanPaths());
  });
}
