import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { STATE_DICTIONARY_V1 } from './state-dictionary.v1.js';

/**
 * How a projection state's document is stored in `ownership_states.state_compressed`: one format
 * byte, then the document's JSON text compressed.
 *
 * Why the service compresses it itself: a small object's document (its body with its managedFields,
 * then its owned fields) is about 1 KB, and Postgres compresses a value only when its row passes
 * about 2 KB (`TOAST_TUPLE_THRESHOLD`, fixed when Postgres is built), so it stored those uncompressed;
 * and a document of 1 KB has too little text of its own to compress well without a preset
 * dictionary (deflate alone: 1,081 → 440 bytes on the benchmark's ConfigMaps; with
 * {@link STATE_DICTIONARY_V1}: → 210; the recorded cases' states 2,478 → 673 and → 399).
 */
export const STATE_FORMAT_DEFLATE_V1 = 1;

const DICTIONARY_V1 = Buffer.from(STATE_DICTIONARY_V1, 'utf8');
/**
 * The encoder's settings (the format does not depend on them): zlib's default level, and its largest
 * hash memory, which measured 25 % less CPU than the default on documents of about 5 KB for the same output.
 */
const DEFLATE_OPTIONS = { dictionary: DICTIONARY_V1, memLevel: 9 };

/** A state document as stored: the format byte, then its JSON text deflated (raw) with the v1 dictionary. */
export function compressStateDocument(document: unknown): Buffer {
  const body = deflateRawSync(Buffer.from(JSON.stringify(document), 'utf8'), DEFLATE_OPTIONS);
  const out = Buffer.allocUnsafe(body.length + 1);
  out[0] = STATE_FORMAT_DEFLATE_V1;
  body.copy(out, 1);
  return out;
}

/** The document a {@link compressStateDocument} value holds; throws on a format this version does not know. */
export function decompressStateDocument(stored: Uint8Array): unknown {
  const format = stored[0];
  if (format !== STATE_FORMAT_DEFLATE_V1) {
    throw new Error(
      `a projection state is stored in format ${format ?? '(empty)'}, which this version of ssa-audit cannot read (it reads format ${STATE_FORMAT_DEFLATE_V1}); ` +
        'run the version that wrote it, or replay the projection with this one',
    );
  }
  const text = inflateRawSync(stored.subarray(1), { dictionary: DICTIONARY_V1 }).toString('utf8');
  return JSON.parse(text);
}
