export { createLogger, type Logger } from './logger.factory.js';
export { NestPinoLogger } from './nest-logger.service.js';
export { CLOCK, systemClock, type Clock } from './clock.js';
export { canonicalJson, sha256, sha256Hex } from './hash.util.js';
export { Metrics, METRICS, LOGGER } from './metrics.registry.js';
export { ClusterHealthBoard, type ClusterHealth } from './cluster-health.js';
export { observationSchema, toObservation } from './observation.schema.js';
export type {
  KubeObject,
  ManagedFieldsEntry,
  Observation,
  ObservationSource,
  ObservedResource,
  WatchEventType,
} from './observation.types.js';
export { LAST_APPLIED_ANNOTATION, hashValue, isSensitiveKind, redactObject, redactObservation } from './redact.util.js';
export { ObservabilityModule } from './observability.module.js';
export { errorCodeOf, isTransientError } from './transient-error.util.js';
export type { WatchCheckpoint } from './watch-checkpoint.types.js';
