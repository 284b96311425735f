import type { KeyObject } from 'node:crypto';

/** Log levels accepted by LOG_LEVEL (pino's names). */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Where events are stored: a real Postgres, or PGlite embedded in the process. */
export type DatabaseConfig =
  | {
      readonly kind: 'postgres';
      readonly url: string;
      /** Connections of the readers' pool (API queries, event streams). */
      readonly poolSize: number;
      /** Connections of the writers' pool (ingest, projections, checkpoints, partitions), apart so reads never starve writes. */
      readonly writePoolSize: number;
    }
  | { readonly kind: 'embedded'; readonly dataDir: string };

/** How jobs travel: BullMQ on Redis, or in-process through the same processor classes. */
export type QueueTransportConfig =
  | { readonly driver: 'bullmq'; readonly redisUrl: string }
  | { readonly driver: 'in-process' };

export interface QueueConfig {
  readonly transport: QueueTransportConfig;
  /** Key prefix in Redis (one per deployment, or per test run). */
  readonly prefix: string;
  /** Ingest is split into this many ordered shards (an object always lands in the same one). */
  readonly ingestShards: number;
  /** Most observations in one ingest job (one transaction). */
  readonly ingestBatchSize: number;
  /** Most bytes of observations (as JSON) in one ingest job: a job closes before the observation that would pass it (one larger alone gets a job of its own). */
  readonly ingestBatchBytes: number;
  /** Tries of a job that fails for a non-transient reason (transient failures are retried without limit). */
  readonly attempts: number;
  /** A job whose worker stops renewing its lock for this long is handed to another worker. */
  readonly lockDurationMs: number;
  /** How often the queue's epoch marker in Redis is checked (a lost queue is detected within this). */
  readonly epochCheckMs: number;
  /** A stopping worker waits this long for its running jobs, then leaves them to be handed over. */
  readonly closeTimeoutMs: number;
}

/**
 * The key of the HMAC that stands in for values of sensitive kinds: given (the variable or a file,
 * read at start-up), or, in the embedded mode only, generated once and kept under DATA_DIR.
 */
export type SensitiveHashKeyConfig =
  | { readonly source: 'SENSITIVE_HASH_KEY' | 'SENSITIVE_HASH_KEY_FILE'; readonly key: KeyObject }
  | { readonly source: 'generated'; readonly path: string };

/** A resource selector in kubectl's `resource.group` form; `*` matches any run of characters. */
export type ResourcePattern = string;

export interface CaptureConfig {
  /** Kinds whose values are never stored, only paths and hashes (`Kind` or `Kind.group`). */
  readonly sensitiveKinds: readonly string[];
  /** Key of the HMAC-SHA-256 that replaces their values (resolve it with `resolveSensitiveHashKey`). */
  readonly hashKey: SensitiveHashKeyConfig;
  /** Value paths compared for change detection (`.` is the whole object). */
  readonly trackedValuePaths: readonly string[];
  /** Value paths removed from the tracked set (default `.status`). */
  readonly untrackedValuePaths: readonly string[];
  /** A full body snapshot every N events of an object; patches in between. */
  readonly bodySnapshotEvery: number;
}

/** Who may ask: `kubernetes` validates bearer tokens with a TokenReview against the cluster; `none` is loopback only. */
export interface AuthConfig {
  readonly mode: 'kubernetes' | 'none';
  /** The kubeconfig context whose cluster authenticates (unset: the first cluster watched). */
  readonly cluster: string | undefined;
  /** Passed through as the TokenReview's `spec.audiences` (empty: the apiserver's own). */
  readonly audiences: readonly string[];
  /** How long a token's review is reused, and how many are kept. */
  readonly cacheTtlMs: number;
  readonly cacheSize: number;
}

export interface AppConfig {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly port: number;
  /** The address the API listens on. */
  readonly host: string;
  readonly auth: AuthConfig;
  readonly logLevel: LogLevel;
  /** Open `/v1/events/stream` connections allowed per process and per caller. */
  readonly streams: { readonly max: number; readonly maxPerCaller: number };
  /** What one request may cost the api role. */
  readonly api: {
    /** Largest request body in bytes (more → 413 `payload-too-large`). */
    readonly bodyLimit: number;
    /** Requests per caller per window (more → 429 `rate-limited`); 0 turns the limit off. */
    readonly rateLimit: number;
    readonly rateWindowMs: number;
  };
  readonly database: DatabaseConfig;
  readonly queue: QueueConfig;
  readonly kube: {
    readonly kubeconfig: readonly string[];
    readonly contexts: readonly string[];
    /** Running in a pod (KUBERNETES_SERVICE_HOST set): with no kubeconfig, the service account is used. */
    readonly inCluster: boolean;
  };
  readonly resources: { readonly include: readonly ResourcePattern[]; readonly exclude: readonly ResourcePattern[] };
  readonly namespaces: { readonly include: readonly string[]; readonly exclude: readonly string[] };
  readonly watcher: WatcherConfig;
  readonly capture: CaptureConfig;
  readonly retention: {
    /** Events older than this many days are dropped by partition; 0 keeps everything. */
    readonly days: number;
    /** Monthly event partitions created ahead of time. */
    readonly partitionsAhead: number;
  };
}

export interface WatcherConfig {
  /** Port of the watcher's own /healthz, /readyz and /metrics (0 picks a free one). */
  readonly port: number;
  /** Most objects per list page, and about the most bytes of JSON per page (its `limit` follows the objects' size). */
  readonly pageSize: number;
  readonly pageBytes: number;
  /** A watch with no event and no bookmark for this long is restarted. */
  readonly stallTimeoutMs: number;
  readonly backoffInitialMs: number;
  readonly backoffMaxMs: number;
  /** Most observations per enqueue, about the most bytes of their objects, and the longest an observation waits in the buffer. */
  readonly batchSize: number;
  readonly batchBytes: number;
  readonly batchDelayMs: number;
  /** Ingest jobs waiting above which the watcher stops reading (backpressure). */
  readonly maxQueueDepth: number;
  /** Longest wait for the ingest queue to drain before a 410 relist is diffed against the store. */
  readonly settleTimeoutMs: number;
  /** Rediscovery of resources (CRD changes also trigger it at once). */
  readonly discoveryIntervalMs: number;
  readonly leaderElection: {
    readonly enabled: boolean;
    readonly namespace: string;
    readonly name: string;
    readonly identity: string;
    readonly durationMs: number;
    readonly renewMs: number;
  };
}

/** One problem with one environment variable. */
export interface ConfigIssue {
  readonly variable: string;
  readonly message: string;
}
