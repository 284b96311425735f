/** What a queue driver reports about its own health (the worker turns it into metrics). */
export interface QueueHealthListener {
  /** A lane started (true) or stopped (false) retrying a transient failure. */
  laneStuck?(lane: string, stuck: boolean): void;
  /** The queue's state was found lost (epoch marker gone or changed). */
  queueLost?(): void;
}
