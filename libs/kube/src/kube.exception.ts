/**
 * What went wrong talking to a cluster. `GONE` (410) means the watch history is compacted: relist.
 * `TOO_LARGE` means the server has not reached the asked resourceVersion (504 Timeout, cause
 * `ResourceVersionTooLarge`): a position from another cluster, or a lagging apiserver; relist too.
 * `NO_IDENTITY`: the cluster's identity (the uid of `kube-system`) could not be read.
 */
export type KubeErrorCode = 'GONE' | 'TOO_LARGE' | 'HTTP' | 'NETWORK' | 'STALLED' | 'INVALID_RESPONSE' | 'CONFIG' | 'NO_IDENTITY';

/** The one error type of libs/kube. */
export class KubeError extends Error {
  constructor(
    readonly code: KubeErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'KubeError';
  }
}

export const isGone = (e: unknown): boolean => e instanceof KubeError && e.code === 'GONE';
export const isTooLargeResourceVersion = (e: unknown): boolean => e instanceof KubeError && e.code === 'TOO_LARGE';

/** The parts of a `Status` object this library reads. */
export interface StatusLike {
  readonly code?: number;
  readonly reason?: string;
  readonly message?: string;
  readonly details?: { readonly causes?: readonly { readonly reason?: string; readonly message?: string }[] };
}

/**
 * A failure Status (an HTTP answer's body, or the object of a watch `ERROR` event) as a KubeError.
 * "Too large resource version" is recognised as client-go's reflector does: the cause type
 * `ResourceVersionTooLarge`, or (apiservers before 1.19) reason `Timeout` with that text.
 */
export function kubeErrorFromStatus(status: number, s: StatusLike | undefined, what: string, fallback = ''): KubeError {
  const message = typeof s?.message === 'string' ? s.message : fallback;
  const causes = Array.isArray(s?.details?.causes) ? s.details.causes : [];
  const tooLarge =
    causes.some((c) => c?.reason === 'ResourceVersionTooLarge') ||
    ((s?.reason === 'Timeout' || status === 504) && (causes.some((c) => c?.message === 'Too large resource version') || message.includes('Too large resource version')));
  const code: KubeErrorCode = status === 410 ? 'GONE' : tooLarge ? 'TOO_LARGE' : 'HTTP';
  return new KubeError(code, `${what}: ${status || '?'} ${message}`, status || undefined);
}
