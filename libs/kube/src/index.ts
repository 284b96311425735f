/** libs/kube: the only importer of @kubernetes/client-node. Clusters, discovery, list/watch, leases, OpenAPI. */
export { KubeClient, sanitizeClusterName, type Query } from './kube-client.js';
export { KubeError, isGone, isTooLargeResourceVersion, kubeErrorFromStatus, type KubeErrorCode, type StatusLike } from './kube.exception.js';
export { clusterIdentity } from './cluster-identity.js';
export { KubeTokenReviewer, type KubeTokenReviewerOptions } from './kube-token-reviewer.js';
export { KubeAuthModule } from './kube-auth.module.js';
export { KubeAccessReviewer } from './kube-access-reviewer.js';
export { loadClusters, type ClusterSource } from './load-clusters.js';
export { discoverResources, selectResources, matchesPattern, resourceKey, groupVersionPath, type ApiResource } from './discovery.js';
export {
  ResourceWatch,
  type KnownObject,
  type WatchSink,
  type WatchListener,
  type ResourceWatchOptions,
  type RelistReason,
  type RestartReason,
} from './resource-watch.js';
export { LeaseElector, type LeaseOptions } from './lease-elector.js';
export { downloadOpenApi, type OpenApiDocuments } from './openapi.js';
export { Backoff, sleep } from './backoff.js';
export { asKubeObject, toObservation } from './to-observation.js';
export { decideClusterHealth, stillFailing, type FailingSince } from './cluster-health.js';
