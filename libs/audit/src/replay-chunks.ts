/**
 * How many objects, and how many of their events, one transaction of a replay of objects may hold
 * (`replayChunks`). Each transaction costs a few round trips whatever it holds (one object a
 * transaction: about 10 ms each, so a CRD's schema arriving after 10,000 of its objects held the
 * projection lane for over a minute and a half), and holds its objects' rows while it runs (an
 * append to one of them waits): an object of a long history held the other 99 of its chunk with it.
 */
export interface ReplayChunkBounds {
  readonly objects: number;
  readonly events: number;
}

export const REPLAY_CHUNK_BOUNDS: ReplayChunkBounds = { objects: 100, events: 1_000 };

/**
 * `objectIds` (in order) cut into the chunks a replay rebuilds one transaction each: as many objects
 * in a row as fit `bounds` by count and by their events (`historyLength`; an object it does not know
 * counts as one event); an object whose history alone passes the events bound gets a chunk of its
 * own, so it holds no other object's rows while it is rebuilt. Every object once, in order.
 */
export function replayChunks(objectIds: readonly string[], historyLength: ReadonlyMap<string, number>, bounds: ReplayChunkBounds = REPLAY_CHUNK_BOUNDS): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let events = 0;
  for (const id of objectIds) {
    const length = Math.max(1, historyLength.get(id) ?? 1);
    if (chunk.length > 0 && (chunk.length >= bounds.objects || events + length > bounds.events)) {
      chunks.push(chunk);
      [chunk, events] = [[], 0];
    }
    chunk.push(id);
    events += length;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
