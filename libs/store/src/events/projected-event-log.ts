import { START_POSITION, type EventPosition } from './event-position.js';
import type { EventReader, StoredEvent } from './event-reader.js';
import { comparePositions, type EventLogReader } from './event-tail.js';

/**
 * The event log as far as the ownership projection that queries read has folded it: what the API's
 * event list and streams serve, so a client that reloads an answer when an event arrives finds that
 * event in it. Its end only moves forward: the highest checkpoint this process has seen. A
 * checkpoint that goes back (a migration that rebuilds the projections, a generation swapped in
 * behind the one before) only delays the next events; what was served stays served, and a reader
 * catching up from before the end never has a stretch it was told was empty come back.
 */
export class ProjectedEventLog implements EventLogReader {
  private highest: EventPosition = START_POSITION;

  constructor(private readonly reader: EventReader) {}

  /** Events after `position`, up to the end. */
  async readAfter(position: EventPosition, limit: number): Promise<StoredEvent[]> {
    return this.reader.readUpTo(position, await this.tail(), limit);
  }

  /** The end: the position of the last event served (the start of the log before anything is projected). */
  async tail(): Promise<EventPosition> {
    const checkpoint = await this.reader.projectedPosition();
    if (comparePositions(checkpoint, this.highest) > 0) this.highest = checkpoint;
    return this.highest;
  }
}
