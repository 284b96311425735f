/**
 * The watcher's resume positions carried by an ingest job, committed in the same transaction as the
 * job's observations. Every flush that carries a checkpoint sends it to every ingest lane (an empty
 * job where a lane has no observations), so once each lane has committed checkpoint `flush`, every
 * observation before its positions is stored.
 */
export interface WatchCheckpoint {
  readonly cluster: string;
  /** The cluster's identity (the kube-system namespace's uid; '' when it cannot be read). */
  readonly clusterUid: string;
  /** Orders checkpoints of a cluster (decimal integer; grows within a session, and across sessions). */
  readonly flush: string;
  /** The lane this copy of the checkpoint goes to, of `lanes` lanes. */
  readonly lane: number;
  readonly lanes: number;
  /** `resource.group` → the resourceVersion to resume from, or null to forget the resource (no longer served). */
  readonly positions: Readonly<Record<string, string | null>>;
}
