/** The time source; injected so tests and replays can control it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Injection token of the {@link Clock}. */
export const CLOCK = Symbol('CLOCK');
