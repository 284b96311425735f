import { hostname } from 'node:os';
import { join } from 'node:path';
import { GENERATED_KEY_FILE, readSensitiveHashKey } from './sensitive-hash-key.js';
import { envSchema } from './config.schema.js';
import { ConfigError } from './config.exception.js';
import type { AppConfig, ConfigIssue } from './config.types.js';

/**
 * Parses the environment into a frozen, typed configuration.
 * Throws one {@link ConfigError} that lists every bad variable.
 * This module is the only reader of `process.env` in the code base.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): AppConfig {
  const known = Object.fromEntries(Object.keys(envSchema.shape).map((k) => [k, env[k]]));
  const parsed = envSchema.safeParse(known);
  const hashKey = readSensitiveHashKey(env);
  if (!parsed.success || hashKey.issues.length > 0) {
    const issues: ConfigIssue[] = (parsed.error?.issues ?? []).map((i) => ({
      variable: String(i.path[0] ?? '(environment)'),
      message: describe(i.message, env[String(i.path[0])]),
    }));
    throw new ConfigError([...issues, ...hashKey.issues]);
  }
  const e = parsed.data;
  const inCluster = e.KUBERNETES_SERVICE_HOST !== undefined;
  const authMode = e.AUTH_MODE ?? (inCluster ? 'kubernetes' : 'none');
  const host = e.API_HOST ?? (authMode === 'none' ? '127.0.0.1' : '0.0.0.0');
  if (authMode === 'none' && !LOOPBACK.has(host) && !e.AUTH_ALLOW_INSECURE) {
    throw new ConfigError([
      {
        variable: 'AUTH_MODE',
        message: `AUTH_MODE=none answers anyone who reaches the port, and API_HOST=${host} is not a loopback address: set AUTH_MODE=kubernetes, bind to 127.0.0.1, or set AUTH_ALLOW_INSECURE=true if something in front authenticates`,
      },
    ]);
  }
  const config: AppConfig = {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host,
    auth: { mode: authMode, cluster: e.AUTH_CLUSTER, audiences: e.AUTH_AUDIENCES, cacheTtlMs: e.AUTH_CACHE_TTL_MS, cacheSize: e.AUTH_CACHE_SIZE },
    logLevel: e.LOG_LEVEL,
    streams: { max: e.STREAMS_MAX, maxPerCaller: e.STREAMS_MAX_PER_CALLER },
    api: { bodyLimit: e.API_BODY_LIMIT, rateLimit: e.API_RATE_LIMIT, rateWindowMs: e.API_RATE_WINDOW_MS },
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE, writePoolSize: e.DATABASE_WRITE_POOL_SIZE }
      : { kind: 'embedded', dataDir: e.DATA_DIR },
    queue: {
      transport: e.REDIS_URL ? { driver: 'bullmq', redisUrl: e.REDIS_URL } : { driver: 'in-process' },
      prefix: e.QUEUE_PREFIX,
      ingestShards: e.INGEST_SHARDS,
      ingestBatchSize: e.INGEST_BATCH_SIZE,
      ingestBatchBytes: e.INGEST_BATCH_BYTES,
      attempts: e.JOB_ATTEMPTS,
      lockDurationMs: e.JOB_LOCK_DURATION_MS,
      epochCheckMs: e.QUEUE_EPOCH_CHECK_MS,
      closeTimeoutMs: e.WORKER_STOP_TIMEOUT_MS,
    },
    kube: { kubeconfig: e.KUBECONFIG, contexts: e.KUBE_CONTEXTS, inCluster },
    resources: { include: e.RESOURCES_INCLUDE, exclude: e.RESOURCES_EXCLUDE },
    namespaces: { include: e.NAMESPACES_INCLUDE, exclude: e.NAMESPACES_EXCLUDE },
    watcher: {
      port: e.WATCHER_PORT,
      pageSize: e.WATCH_PAGE_SIZE,
      pageBytes: e.WATCH_PAGE_BYTES,
      stallTimeoutMs: e.WATCH_STALL_TIMEOUT_MS,
      backoffInitialMs: e.WATCH_BACKOFF_INITIAL_MS,
      backoffMaxMs: e.WATCH_BACKOFF_MAX_MS,
      batchSize: e.WATCH_BATCH_SIZE,
      batchBytes: e.WATCH_BATCH_BYTES,
      batchDelayMs: e.WATCH_BATCH_DELAY_MS,
      maxQueueDepth: e.WATCH_MAX_QUEUE_DEPTH,
      settleTimeoutMs: e.WATCH_SETTLE_TIMEOUT_MS,
      discoveryIntervalMs: e.DISCOVERY_INTERVAL_MS,
      leaderElection: {
        enabled: e.LEADER_ELECTION,
        namespace: e.LEASE_NAMESPACE,
        name: e.LEASE_NAME,
        identity: e.WATCHER_IDENTITY ?? `${hostname()}-${process.pid}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 128),
        durationMs: e.LEASE_DURATION_MS,
        renewMs: e.LEASE_RENEW_MS,
      },
    },
    capture: {
      sensitiveKinds: e.SENSITIVE_KINDS,
      hashKey: hashKey.value ?? { source: 'generated', path: join(e.DATA_DIR, GENERATED_KEY_FILE) },
      trackedValuePaths: e.TRACKED_VALUE_PATHS,
      untrackedValuePaths: e.UNTRACKED_VALUE_PATHS,
      bodySnapshotEvery: e.BODY_SNAPSHOT_EVERY,
    },
    retention: { days: e.RETENTION_DAYS, partitionsAhead: e.PARTITIONS_AHEAD },
  };
  return deepFreeze(config);
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function describe(message: string, raw: string | undefined): string {
  // zod's enum messages already list the options; add what was given unless it may be a secret.
  if (raw === undefined || message.includes('password') || message.includes('not shown') || message.includes('" is not ')) return message;
  return `${message} (got "${raw}")`;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Where the test tiers find the machine's Postgres and Redis (tests only; the service never reads these). */
export interface TestSettings {
  readonly adminDatabaseUrl: string;
  readonly redisUrl: string;
}

export function loadTestSettings(env: Readonly<Record<string, string | undefined>> = process.env): TestSettings {
  return {
    adminDatabaseUrl: env['TEST_DATABASE_ADMIN_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: env['TEST_REDIS_URL'] || 'redis://127.0.0.1:6379',
  };
}
