import type { EventPosition } from '../../../audit/src/index.js';

export type { EventPosition };

/** Before the first event of the log. */
export const START_POSITION: EventPosition = { xid: '0', seq: '0' };
