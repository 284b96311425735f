import type { ClusterHealth } from '../../common/src/index.js';

/** A list/watch (or the cluster's discovery) failing since `since` (ms). */
export interface WatchFailure {
  readonly resource: string;
  readonly since: number;
  readonly error: string;
}

/** Since when something has been failing, and its latest error. */
export type FailingSince = Omit<WatchFailure, 'resource'>;

/** After another failure: the start stays the first failure's (until a success clears it), the error is the latest. */
export function stillFailing(previous: FailingSince | undefined, e: unknown, now = Date.now()): FailingSince {
  const message = (e as Error | undefined)?.message;
  return { since: previous?.since ?? now, error: typeof message === 'string' ? message : String(e) };
}

/** A watch reconnecting after an error is normal; failing longer than this means the cluster is behind. */
const BEHIND_GRACE_MS = 5_000;

/**
 * The health of one cluster's watching (pure): `standby` when another replica holds the lease,
 * `behind` when some list/watch has failed without a success for longer than the grace (the oldest
 * failure is the start), else `watching` once every resource is listed, `starting` before.
 */
export function decideClusterHealth(
  cluster: string,
  state: { readonly leading: boolean; readonly synced: boolean; readonly failures: readonly WatchFailure[] },
  now: number,
  graceMs = BEHIND_GRACE_MS,
): ClusterHealth {
  if (!state.leading) return { cluster, status: 'standby' };
  const late = state.failures.filter((f) => now - f.since >= graceMs).sort((a, b) => a.since - b.since);
  if (late.length > 0) {
    const latest = late.reduce((a, b) => (b.since > a.since ? b : a));
    return { cluster, status: 'behind', since: new Date(late[0]!.since).toISOString(), error: latest.error, resources: late.map((f) => f.resource).sort() };
  }
  return { cluster, status: state.synced ? 'watching' : 'starting' };
}
