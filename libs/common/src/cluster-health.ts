/** How the watching of one cluster stands, as `/readyz` and `ssa_audit_cluster_behind` report it. */
export type ClusterWatchStatus = 'starting' | 'watching' | 'behind' | 'standby';

export interface ClusterHealth {
  /** The kubeconfig context name (the `cluster` of every answer). */
  readonly cluster: string;
  /** `behind`: its list/watch has been failing longer than a short grace, so its answers are stale. */
  readonly status: ClusterWatchStatus;
  /** When the failing began (RFC 3339), with `behind`. */
  readonly since?: string;
  /** The latest failure, with `behind`. */
  readonly error?: string;
  /** The resources (`resource.group`, or `discovery`) failing, with `behind`. */
  readonly resources?: readonly string[];
}

/**
 * Where the watcher publishes each cluster's health and the api's `/readyz` and the metrics read it
 * (one per process: in a process without the watcher role it stays empty).
 */
export class ClusterHealthBoard {
  private readonly sources = new Map<string, () => ClusterHealth>();

  /** Registers the cluster's health source; returns its unregistration. */
  register(cluster: string, source: () => ClusterHealth): () => void {
    this.sources.set(cluster, source);
    return () => {
      if (this.sources.get(cluster) === source) this.sources.delete(cluster);
    };
  }

  report(): ClusterHealth[] {
    return [...this.sources.values()].map((s) => s());
  }
}
