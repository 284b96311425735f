/** The sandbox API server: a Kubernetes-compatible apiserver in memory, managedFields by the SSA engine. */
export { startSandbox, sandboxKubeconfig, type Sandbox, type SandboxOptions } from './start-sandbox.js';
export { Cluster, managerName, type ClusterOptions, type WriteOptions, type DeleteOptions, type ObjectRef, type PatchType } from './cluster.js';
export { ObjectStore, ResourceVersionTooOldError, type StoreEvent, type WatchEventType } from './object-store.js';
export { ApiError, type StatusReason } from './api-error.js';
export { defaultCrdSchemaConverter, type CrdSchemaConverter } from './crd.js';
export { labelSelector, fieldSelector, parseLabelSelector } from './selectors.js';
export { applyStrategicMergePatch } from './patch/strategic-merge-patch.js';
export { applyMergePatch } from './patch/json-merge-patch.js';
export type { ResourceType } from './resource-type.js';
export type { RequestLogLine } from './http-handler.js';
export { authorize, forbiddenMessage, serviceAccountUsername, serviceAccountGroups, type RbacPolicy, type RequestAttributes, type UserInfo, type Decision } from './rbac-authorizer.js';
export { SANDBOX_ADMIN_TOKEN, SANDBOX_ADMIN, API_AUDIENCES, ServiceAccountTokens } from './service-account-tokens.js';
