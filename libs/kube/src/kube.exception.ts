/** What went wrong talking to a cluster. `GONE` (410) means the watch history is compacted: relist. */
export type KubeErrorCode = 'GONE' | 'HTTP' | 'NETWORK' | 'STALLED' | 'INVALID_RESPONSE' | 'CONFIG';

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
