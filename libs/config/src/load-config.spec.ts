import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, resolveSensitiveHashKey } from './index.js';

const KEY = `base64:${Buffer.alloc(32, 9).toString('base64')}`;
const PG = 'postgres://u:p@db:5432/audit';
const hmacWith = (k: ReturnType<typeof resolveSensitiveHashKey>) => createHmac('sha256', k).update('x').digest('hex');

function issuesOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.issues.map((i) => `${i.variable}: ${i.message}`);
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('gives the embedded, in-process defaults for an empty environment', () => {
    const c = loadConfig({});
    expect(c.database).toEqual({ kind: 'embedded', dataDir: './data' });
    expect(c.queue.transport).toEqual({ driver: 'in-process' });
    expect(c.port).toBe(3000);
    expect(c.capture.sensitiveKinds).toEqual(['Secret']);
    expect(c.capture.trackedValuePaths).toEqual(['.']);
    expect(c.capture.untrackedValuePaths).toEqual(['.status']);
    expect(c.resources.include).toEqual(['*']);
    expect(c.retention.days).toBe(0);
    expect(c.streams).toEqual({ max: 1000, maxPerCaller: 50 });
    expect(c.api).toEqual({ bodyLimit: 1048576, rateLimit: 6000, rateWindowMs: 60000 });
    expect(c.capture.hashKey).toEqual({ source: 'generated', path: 'data/sensitive-hash.key' });
    expect(Object.isFrozen(c) && Object.isFrozen(c.queue)).toBe(true);
  });

  it('uses Postgres and BullMQ when both URLs are given', () => {
    const c = loadConfig({ DATABASE_URL: PG, REDIS_URL: 'redis://cache:6379', SENSITIVE_HASH_KEY: KEY });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/audit', poolSize: 10, writePoolSize: 5 });
    expect(c.queue.transport).toEqual({ driver: 'bullmq', redisUrl: 'redis://cache:6379' });
  });

  it('reads the hash key from SENSITIVE_HASH_KEY (raw or base64:) or SENSITIVE_HASH_KEY_FILE', () => {
    const b64 = loadConfig({ DATABASE_URL: PG, SENSITIVE_HASH_KEY: KEY }).capture.hashKey;
    expect(b64.source).toBe('SENSITIVE_HASH_KEY');
    expect(hmacWith(resolveSensitiveHashKey(b64))).toBe(createHmac('sha256', Buffer.alloc(32, 9)).update('x').digest('hex'));
    const raw = 'a'.repeat(32);
    expect(hmacWith(resolveSensitiveHashKey(loadConfig({ DATABASE_URL: PG, SENSITIVE_HASH_KEY: raw }).capture.hashKey))).toBe(
      createHmac('sha256', raw).update('x').digest('hex'),
    );
    const file = join(mkdtempSync(join(tmpdir(), 'ssa-key-')), 'key');
    writeFileSync(file, `${KEY}\n`);
    const fromFile = loadConfig({ DATABASE_URL: PG, SENSITIVE_HASH_KEY_FILE: file }).capture.hashKey;
    expect(fromFile.source).toBe('SENSITIVE_HASH_KEY_FILE');
    expect(hmacWith(resolveSensitiveHashKey(fromFile))).toBe(hmacWith(resolveSensitiveHashKey(b64)));
  });

  it('refuses a real database without a hash key, a short key, both variables, an unreadable file, never showing the key', () => {
    expect(issuesOf({ DATABASE_URL: PG })).toEqual([expect.stringMatching(/^SENSITIVE_HASH_KEY: required with DATABASE_URL/)]);
    const short = issuesOf({ SENSITIVE_HASH_KEY: 'hunter2-short' });
    expect(short).toEqual(['SENSITIVE_HASH_KEY: must be at least 32 bytes (got 13; value not shown), e.g. "base64:" + `openssl rand -base64 32`']);
    expect(issuesOf({ SENSITIVE_HASH_KEY: 'base64:!!!!' })).toEqual(['SENSITIVE_HASH_KEY: after "base64:" must come base64 (value not shown)']);
    expect(issuesOf({ SENSITIVE_HASH_KEY: KEY, SENSITIVE_HASH_KEY_FILE: '/k' })).toEqual([
      'SENSITIVE_HASH_KEY: set either SENSITIVE_HASH_KEY or SENSITIVE_HASH_KEY_FILE, not both',
    ]);
    expect(issuesOf({ SENSITIVE_HASH_KEY_FILE: '/nonexistent/key' })).toEqual(['SENSITIVE_HASH_KEY_FILE: cannot read "/nonexistent/key": ENOENT']);
  });

  it('in the embedded mode generates a key once under DATA_DIR (mode 0600) and keeps it', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'ssa-data-')), 'data');
    const c = loadConfig({ DATA_DIR: dataDir }).capture.hashKey;
    expect(c).toEqual({ source: 'generated', path: join(dataDir, 'sensitive-hash.key') });
    const k = resolveSensitiveHashKey(c);
    expect(statSync(join(dataDir, 'sensitive-hash.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dataDir, 'sensitive-hash.key'), 'utf8')).toMatch(/^base64:[A-Za-z0-9+/]{43}=\n$/);
    // Another process (no memo) reads the same file: the same key.
    const again = loadConfig({ SENSITIVE_HASH_KEY_FILE: join(dataDir, 'sensitive-hash.key') }).capture.hashKey;
    expect(hmacWith(resolveSensitiveHashKey(again))).toBe(hmacWith(k));
  });

  it('parses lists, trimming blanks', () => {
    const c = loadConfig({ SENSITIVE_KINDS: 'Secret, SealedSecret.bitnami.com ,', KUBE_CONTEXTS: 'a,b', KUBECONFIG: '/x:/y' });
    expect(c.capture.sensitiveKinds).toEqual(['Secret', 'SealedSecret.bitnami.com']);
    expect(c.kube).toEqual({ kubeconfig: ['/x', '/y'], contexts: ['a', 'b'], inCluster: false });
  });

  it('gives the watcher its defaults, and reads its variables', () => {
    const d = loadConfig({});
    expect(d.resources.exclude).toEqual(['events', 'events.events.k8s.io', 'leases.coordination.k8s.io', 'endpointslices.discovery.k8s.io', 'endpoints']);
    expect(d.watcher).toMatchObject({ port: 9464, pageSize: 500, pageBytes: 8388608, batchSize: 500, batchBytes: 8388608, batchDelayMs: 200, maxQueueDepth: 200 });
    expect(d.watcher.leaderElection).toMatchObject({ enabled: true, namespace: 'default', name: 'ssa-audit-watcher', durationMs: 15000, renewMs: 5000 });
    expect(d.watcher.leaderElection.identity).toMatch(/^[A-Za-z0-9._-]+$/);
    const c = loadConfig({ LEADER_ELECTION: 'false', WATCHER_IDENTITY: 'w-1', NAMESPACES_EXCLUDE: 'kube-*', KUBERNETES_SERVICE_HOST: '10.0.0.1' });
    expect(c.watcher.leaderElection).toMatchObject({ enabled: false, identity: 'w-1' });
    expect(c.namespaces).toEqual({ include: ['*'], exclude: ['kube-*'] });
    expect(c.kube.inCluster).toBe(true);
    expect(issuesOf({ LEADER_ELECTION: 'maybe', WATCH_BATCH_SIZE: '0' })).toEqual([
      'WATCH_BATCH_SIZE: must be at least 1 (got "0")',
      'LEADER_ELECTION: must be true or false (got "maybe")',
    ]);
    expect(issuesOf({ WATCH_PAGE_BYTES: '1000' })).toEqual(['WATCH_PAGE_BYTES: must be at least 65536 (got "1000")']);
  });

  it('lists every bad variable in one error', () => {
    const issues = issuesOf({
      PORT: 'eighty',
      LOG_LEVEL: 'verbose',
      DATABASE_URL: 'mysql://root:hunter2@db/x',
      REDIS_URL: 'not a url',
      INGEST_SHARDS: '0',
      SENSITIVE_KINDS: 'secret',
      UNTRACKED_VALUE_PATHS: 'status',
      SENSITIVE_HASH_KEY: KEY,
    });
    expect(issues).toHaveLength(7);
    expect(issues).toEqual(
      expect.arrayContaining([
        'PORT: must be a whole number between 1 and 65535 (got "eighty")',
        expect.stringMatching(/^LOG_LEVEL: .*"info".*\(got "verbose"\)$/),
        expect.stringMatching(/^DATABASE_URL: must be a URL starting with postgres:\/\/ or postgresql:\/\//),
        expect.stringMatching(/^REDIS_URL: must be a URL starting with redis:\/\//),
        'INGEST_SHARDS: must be at least 1 (got "0")',
        'SENSITIVE_KINDS: "secret" is not a kind like "Secret" or "SealedSecret.bitnami.com"',
        'UNTRACKED_VALUE_PATHS: "status" is not a value path like ".status"',
      ]),
    );
  });

  it('never echoes a database password', () => {
    try {
      loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/x' });
      throw new Error('expected a ConfigError');
    } catch (e) {
      expect((e as Error).message).toContain('DATABASE_URL');
      expect((e as Error).message).not.toContain('hunter2');
    }
  });

  it('writes a readable message', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(
      'Invalid configuration (1 problem):\n  - PORT: must be at most 65535 (got "70000")',
    );
  });

  it('authentication: none on loopback outside a cluster, kubernetes on 0.0.0.0 in a pod; none on another address refuses to start', () => {
    expect(loadConfig({})).toMatchObject({ host: '127.0.0.1', auth: { mode: 'none', cluster: undefined, audiences: [], cacheTtlMs: 10000, cacheSize: 10000 } });
    expect(loadConfig({ KUBERNETES_SERVICE_HOST: '10.0.0.1' })).toMatchObject({ host: '0.0.0.0', auth: { mode: 'kubernetes' } });
    expect(loadConfig({ AUTH_MODE: 'kubernetes', AUTH_CLUSTER: 'prod', AUTH_AUDIENCES: 'ssa-audit,api' }).auth).toMatchObject({ cluster: 'prod', audiences: ['ssa-audit', 'api'] });
    expect(() => loadConfig({ AUTH_MODE: 'none', API_HOST: '0.0.0.0' })).toThrow(/AUTH_MODE: AUTH_MODE=none answers anyone who reaches the port, and API_HOST=0\.0\.0\.0 is not a loopback address/);
    expect(loadConfig({ AUTH_MODE: 'none', API_HOST: '0.0.0.0', AUTH_ALLOW_INSECURE: 'true' })).toMatchObject({ host: '0.0.0.0', auth: { mode: 'none' } });
    expect(loadConfig({ API_HOST: '::1' }).host).toBe('::1');
  });
});
