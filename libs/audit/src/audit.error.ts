/**
 * Why an audit operation refused its input. Callers switch on the code; only the API's exception
 * filter maps codes to HTTP statuses (all are client errors except `object-mismatch`, a bug in the
 * caller that folded another object's event).
 */
export type AuditErrorCode =
  /** An event is malformed (bad seq, watch type, time, or not an object). */
  | 'invalid-event'
  /** An event of another object was folded into a state. */
  | 'object-mismatch'
  /** A field path does not parse. */
  | 'invalid-path'
  /** An `at=` value is neither an RFC 3339 time nor a sequence number. */
  | 'invalid-at'
  /** A manifest given to `simulateApply` is not a valid apply configuration for its kind. */
  | 'invalid-manifest';

/** The audit domain's typed error: a stable `code`, a message, and the offending parameter if any. */
export class AuditError extends Error {
  override readonly name = 'AuditError';
  constructor(
    readonly code: AuditErrorCode,
    message: string,
    /** The input parameter at fault (`path`, `at`, `manifest`, `event.seq`, …). */
    readonly parameter?: string,
    /** The engine's error code when the engine refused the input. */
    readonly engineCode?: string,
  ) {
    super(message);
  }
}
