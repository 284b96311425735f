/**
 * `items` in order, cut into chunks of at most `maxCount` items and `maxBytes` bytes (`bytesOf` each):
 * a chunk closes before the item that would pass either bound, and an item larger than `maxBytes`
 * alone is a chunk of its own. The same items and sizes always give the same chunks.
 */
export function boundedChunks<T>(items: readonly T[], maxCount: number, maxBytes: number, bytesOf: (item: T) => number): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = bytesOf(item);
    if (chunk.length > 0 && (chunk.length >= maxCount || bytes + size > maxBytes)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(item);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
