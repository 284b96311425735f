import { z } from 'zod';

// Environment variables are strings; each field parses one variable. Empty strings count as unset.
const unset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const int = (min: number, max: number, fallback: number) =>
  z.preprocess(
    unset,
    z
      .string()
      .regex(/^\d+$/, `must be a whole number between ${min} and ${max}`)
      .transform(Number)
      .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
      .default(fallback),
  );

const list = (item: RegExp, what: string, fallback: string) =>
  z.preprocess(
    unset,
    z
      .string()
      .default(fallback)
      .transform((s) => s.split(',').map((x) => x.trim()).filter((x) => x !== ''))
      .superRefine((items, ctx) => {
        for (const x of items) if (!item.test(x)) ctx.addIssue({ code: 'custom', message: `"${x}" is not ${what}` });
      }),
  );

const url = (schemes: readonly string[]) =>
  z.preprocess(
    unset,
    z
      .string()
      .refine((s) => {
        try {
          return schemes.includes(new URL(s).protocol);
        } catch {
          return false;
        }
      }, `must be a URL starting with ${schemes.map((s) => `${s}//`).join(' or ')} (value not shown: it may hold a password)`)
      .optional(),
  );

const bool = (fallback: boolean) =>
  z.preprocess(
    unset,
    z
      .enum(['true', 'false', '1', '0'], 'must be true or false')
      .default(fallback ? 'true' : 'false')
      .transform((s) => s === 'true' || s === '1'),
  );

const RESOURCE_PATTERN = /^[a-z0-9*]([a-z0-9*.-]*[a-z0-9*])?$/;
const KIND = /^[A-Z][A-Za-z0-9]*(\.[a-z0-9]([a-z0-9.-]*[a-z0-9])?)?$/;
const VALUE_PATH = /^\.$|^(\.[A-Za-z0-9_$-][A-Za-z0-9_$/-]*)+$/;

/** The environment variables the service reads, with their defaults. */
export const envSchema = z.object({
  NODE_ENV: z.preprocess(unset, z.enum(['development', 'production', 'test']).default('development')),
  PORT: int(1, 65535, 3000),
  // Unset: 127.0.0.1 without authentication, 0.0.0.0 with it (see load-config).
  API_HOST: z.preprocess(unset, z.string().regex(/^[0-9A-Za-z.:-]{1,253}$/, 'must be an IP address or a host name').optional()),
  // Unset: kubernetes in a pod (KUBERNETES_SERVICE_HOST set), none elsewhere.
  AUTH_MODE: z.preprocess(unset, z.enum(['kubernetes', 'none']).optional()),
  AUTH_ALLOW_INSECURE: bool(false),
  AUTH_CLUSTER: z.preprocess(unset, z.string().regex(/^[^\s,]+$/, 'must be a context name').optional()),
  AUTH_AUDIENCES: list(/^[^\s,]+$/, 'an audience', ''),
  AUTH_CACHE_TTL_MS: int(0, 600000, 10000),
  AUTH_CACHE_SIZE: int(1, 1000000, 10000),
  STREAMS_MAX: int(1, 100000, 1000),
  STREAMS_MAX_PER_CALLER: int(1, 100000, 50),
  API_BODY_LIMIT: int(1024, 100 * 1024 * 1024, 1024 * 1024),
  // 100 requests a second per caller, sustained: an investigator's clicks and a dashboard's polls stay far below.
  API_RATE_LIMIT: int(0, 1000000, 6000),
  API_RATE_WINDOW_MS: int(1000, 3600000, 60000),
  LOG_LEVEL: z.preprocess(unset, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DATABASE_POOL_SIZE: int(1, 200, 10),
  DATABASE_WRITE_POOL_SIZE: int(1, 200, 5),
  DATA_DIR: z.preprocess(unset, z.string().default('./data')),
  REDIS_URL: url(['redis:', 'rediss:']),
  QUEUE_PREFIX: z.preprocess(
    unset,
    z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "_" or "-"').default('ssa-audit'),
  ),
  INGEST_SHARDS: int(1, 256, 4),
  INGEST_BATCH_SIZE: int(1, 10000, 500),
  INGEST_BATCH_BYTES: int(65536, 268435456, 8388608),
  JOB_ATTEMPTS: int(1, 100, 5),
  JOB_LOCK_DURATION_MS: int(1000, 600000, 30000),
  QUEUE_EPOCH_CHECK_MS: int(100, 60000, 1000),
  WORKER_STOP_TIMEOUT_MS: int(0, 60000, 10000),
  KUBECONFIG: z.preprocess(unset, z.string().default('').transform((s) => s.split(':').filter((x) => x !== ''))),
  KUBE_CONTEXTS: list(/^[^\s,]+$/, 'a context name', ''),
  RESOURCES_INCLUDE: list(RESOURCE_PATTERN, 'a resource pattern like "deployments.apps", "pods" or "*.example.com"', '*'),
  RESOURCES_EXCLUDE: list(
    RESOURCE_PATTERN,
    'a resource pattern like "deployments.apps", "pods" or "*.example.com"',
    'events,events.events.k8s.io,leases.coordination.k8s.io,endpointslices.discovery.k8s.io,endpoints',
  ),
  NAMESPACES_INCLUDE: list(/^[a-z0-9*]([a-z0-9*-]*[a-z0-9*])?$/, 'a namespace pattern like "team-*"', '*'),
  NAMESPACES_EXCLUDE: list(/^[a-z0-9*]([a-z0-9*-]*[a-z0-9*])?$/, 'a namespace pattern like "team-*"', ''),
  // Set by Kubernetes in every pod: with no KUBECONFIG the watcher then uses the pod's service account.
  KUBERNETES_SERVICE_HOST: z.preprocess(unset, z.string().optional()),
  WATCHER_PORT: int(0, 65535, 9464),
  WATCH_PAGE_SIZE: int(1, 10000, 500),
  WATCH_PAGE_BYTES: int(65536, 1073741824, 8388608),
  WATCH_STALL_TIMEOUT_MS: int(1000, 3600000, 180000),
  WATCH_BACKOFF_INITIAL_MS: int(10, 600000, 500),
  WATCH_BACKOFF_MAX_MS: int(100, 3600000, 30000),
  WATCH_BATCH_SIZE: int(1, 10000, 500),
  WATCH_BATCH_BYTES: int(65536, 1073741824, 8388608),
  WATCH_BATCH_DELAY_MS: int(1, 60000, 200),
  WATCH_MAX_QUEUE_DEPTH: int(1, 1000000, 200),
  WATCH_SETTLE_TIMEOUT_MS: int(0, 3600000, 60000),
  DISCOVERY_INTERVAL_MS: int(1000, 3600000, 60000),
  LEADER_ELECTION: bool(true),
  LEASE_NAMESPACE: z.preprocess(unset, z.string().regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'must be a namespace name').default('default')),
  LEASE_NAME: z.preprocess(unset, z.string().regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/, 'must be a lease name').default('ssa-audit-watcher')),
  LEASE_DURATION_MS: int(1000, 600000, 15000),
  LEASE_RENEW_MS: int(100, 600000, 5000),
  WATCHER_IDENTITY: z.preprocess(unset, z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, 'must be 1–128 letters, digits, ".", "_" or "-"').optional()),
  // Checked in load-config.ts (one of the two, a file to read, never echoed in an error).
  SENSITIVE_HASH_KEY: z.preprocess(unset, z.string().optional()),
  SENSITIVE_HASH_KEY_FILE: z.preprocess(unset, z.string().optional()),
  SENSITIVE_KINDS: list(KIND, 'a kind like "Secret" or "SealedSecret.bitnami.com"', 'Secret'),
  TRACKED_VALUE_PATHS: list(VALUE_PATH, 'a value path like "." or ".spec.replicas"', '.'),
  UNTRACKED_VALUE_PATHS: list(VALUE_PATH, 'a value path like ".status"', '.status'),
  BODY_SNAPSHOT_EVERY: int(1, 10000, 20),
  RETENTION_DAYS: int(0, 36500, 0),
  PARTITIONS_AHEAD: int(1, 24, 3),
});

export type EnvInput = z.input<typeof envSchema>;
