/**
 * Many byte strings as ONE bytea parameter plus their 1-based starts and lengths, cut apart in SQL
 * with `substring($bytes FROM start FOR length)`. node-postgres sends a Buffer parameter in binary
 * format, while a `bytea[]` parameter is written as a text array literal of hex strings (twice the
 * bytes, escaped, and most of the statement-building CPU of an ingest batch).
 */
export interface PackedBytes {
  readonly bytes: Buffer;
  readonly starts: number[];
  /** -1 for a missing value (SQL NULL, see {@link PACKED_SLICE}). */
  readonly lengths: number[];
}

export function packBytes(parts: readonly (Buffer | string | null)[]): PackedBytes {
  const buffers: Buffer[] = [];
  const starts: number[] = [];
  const lengths: number[] = [];
  let at = 1;
  for (const p of parts) {
    if (p === null) {
      starts.push(at);
      lengths.push(-1);
      continue;
    }
    const b = typeof p === 'string' ? Buffer.from(p, 'utf8') : p;
    buffers.push(b);
    starts.push(at);
    lengths.push(b.length);
    at += b.length;
  }
  return { bytes: Buffer.concat(buffers, at - 1), starts, lengths };
}

/** SQL for one packed value: `bytes`, `start` and `length` are the parameter and column names to use. */
export const packedSlice = (bytes: string, start: string, length: string) =>
  `CASE WHEN ${length} < 0 THEN NULL ELSE substring(${bytes} FROM ${start} FOR ${length}) END`;

/** Fixed-size values (32-byte hashes) packed back to back: the i-th (1-based) is cut by its position alone. */
export const fixedSlice = (bytes: string, ordinal: string, size: number) => `substring(${bytes} FROM (${ordinal}::int - 1) * ${size} + 1 FOR ${size})`;
