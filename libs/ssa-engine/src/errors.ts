/**
 * The engine's own error type. Every failure the engine reports is an `SsaEngineError` with a
 * stable string `code`; callers switch on the code, never on the message.
 */
export type SsaEngineErrorCode =
  | 'invalid-path-element'
  | 'invalid-path'
  | 'invalid-fields-v1'
  | 'invalid-managed-fields'
  | 'schema-error'
  | 'schema-conversion'
  | 'validation'
  | 'conflict'
  | 'invalid-apply'
  | 'unknown-version'
  | 'too-deep'
  /** An object does not decode into its Go type (wrong JSON kind, bad quantity or time, ...). */
  | 'invalid-object'
  /** No Go type (JSON encoding) is known for a type name or apiVersion/kind. */
  | 'unknown-kind';

export class SsaEngineError extends Error {
  override readonly name: string = 'SsaEngineError';
  constructor(
    readonly code: SsaEngineErrorCode,
    message: string,
    /** Human-form path of the offending element, where there is one. */
    readonly path?: string,
  ) {
    super(message);
  }
}

/** Maximum nesting the engine walks before giving up with a `too-deep` error (hostile input). */
export const MAX_DEPTH = 256;

/** For exhaustive switches: the compiler proves this is never reached. */
export function assertUnreachable(x: never): never {
  throw new Error(`unreachable: ${JSON.stringify(x)}`);
}
