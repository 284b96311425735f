/** The reasons of the Kubernetes `Status` objects the sandbox answers with (metav1.StatusReason). */
export type StatusReason =
  | 'BadRequest'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'UnsupportedMediaType'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'Expired'
  | 'Gone'
  | 'InternalError'
  | 'Forbidden'
  | 'Unauthorized'
  | 'Timeout';

const CODES: Record<StatusReason, number> = {
  BadRequest: 400,
  NotFound: 404,
  AlreadyExists: 409,
  Conflict: 409,
  Invalid: 422,
  UnsupportedMediaType: 415,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  Expired: 410,
  Gone: 410,
  InternalError: 500,
  Forbidden: 403,
  Unauthorized: 401,
  Timeout: 504,
};

export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  readonly kind?: string;
  readonly causes?: readonly StatusCause[];
  readonly retryAfterSeconds?: number;
}

/** A failed request, carried as the `Status` object the apiserver would answer with. */
export class ApiError extends Error {
  readonly code: number;

  constructor(
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
    /** A body to send as is (the engine's 409 conflict Status). */
    readonly body?: Record<string, unknown>,
    code?: number,
  ) {
    super(message);
    this.code = code ?? CODES[reason];
  }

  /** The `Status` body, members in the Go encoder's order. */
  toStatus(): Record<string, unknown> {
    if (this.body) return this.body;
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/** Identifies the object of an error message: `pods "web"`, with the resource's group. */
export interface ErrorTarget {
  readonly resource: string;
  readonly group: string;
  readonly name: string;
}

const qualified = (t: ErrorTarget) => (t.group ? `${t.resource}.${t.group}` : t.resource);

export const notFound = (t: ErrorTarget) =>
  new ApiError('NotFound', `${qualified(t)} "${t.name}" not found`, { name: t.name, group: t.group || undefined, kind: t.resource } as StatusDetails);

export const alreadyExists = (t: ErrorTarget) =>
  new ApiError('AlreadyExists', `${qualified(t)} "${t.name}" already exists`, { name: t.name, group: t.group || undefined, kind: t.resource } as StatusDetails);

export const conflict = (t: ErrorTarget, why: string) =>
  new ApiError('Conflict', `Operation cannot be fulfilled on ${qualified(t)} "${t.name}": ${why}`, {
    name: t.name,
    group: t.group || undefined,
    kind: t.resource,
  } as StatusDetails);

export const badRequest = (message: string) => new ApiError('BadRequest', message);

/** A 422: `Kind "name" is invalid: field: message`, with one cause per field error. */
export function invalid(kind: string, group: string, name: string, causes: readonly Required<StatusCause>[]): ApiError {
  const list = causes.map((c) => `${c.field}: ${c.message}`);
  const text = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  return new ApiError('Invalid', `${kind}${group ? '.' + group : ''} "${name}" is invalid: ${text}`, {
    name,
    group: group || undefined,
    kind,
    causes,
  } as StatusDetails);
}

/**
 * A read at a resourceVersion the server has not reached (storage.NewTooLargeResourceVersionError):
 * a 504 Timeout whose cause `ResourceVersionTooLarge` is what clients (client-go's reflector) test
 * for. The watch cache asks to retry after 1 s; etcd-served reads carry no retry hint.
 */
export const tooLargeResourceVersion = (requested: number, current: number, retryAfterSeconds: number) =>
  new ApiError('Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
  });
