/**
 * A position in the global event log. Readers walk events ordered by (xid, seq) and only up to
 * the oldest transaction still open, so an event committed late by an older transaction is never
 * skipped (a plain `seq > n` reader would skip it). xid and seq are decimal strings (64-bit).
 */
export interface EventPosition {
  readonly xid: string;
  readonly seq: string;
}

export const START_POSITION: EventPosition = { xid: '0', seq: '0' };
