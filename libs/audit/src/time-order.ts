import type { ObjectOwnershipState } from './object-ownership.projection.js';

/**
 * True when the event that took an object from `before` to `after` was observed no earlier than the
 * event before it, compared to the millisecond as `at=` a time compares events (`Date.parse`).
 *
 * `at=` a time keeps every event observed by then. While each of an object's events is observed no
 * earlier than the one before it, those events are the first ones of its history, so its state then
 * is the version in force after the last of them, and a list as of a time can read the versions by
 * their events' times. One event that goes back in time (a watcher's clock stepped back, another
 * replica's clock behind) breaks that, and the object must be folded instead.
 */
export function keepsTimeOrder(before: ObjectOwnershipState | undefined, after: ObjectOwnershipState): boolean {
  return before === undefined || before === after || Date.parse(after.lastAt) >= Date.parse(before.lastAt);
}
