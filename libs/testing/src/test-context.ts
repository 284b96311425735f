import { randomBytes } from 'node:crypto';
import { loadConfig, loadTestSettings, type AppConfig } from '../../config/src/index.js';
import { deleteQueueKeys } from '../../queue/src/index.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestContext {
  readonly database: TestDatabase;
  readonly redisUrl: string;
  /** The Redis key prefix of this run. */
  readonly prefix: string;
  /** The service configuration pointing at this run's database and prefix (plus overrides). */
  config(overrides?: Record<string, string>): AppConfig;
  /** The same as environment variables (for child processes). */
  env(overrides?: Record<string, string>): Record<string, string>;
  dispose(): Promise<void>;
}

/** The hash key of the test tiers (a real DATABASE_URL requires one). */
export const TEST_SENSITIVE_HASH_KEY = `base64:${Buffer.alloc(32, 0x5a).toString('base64')}`;

/** One test file's own database (real migrations) and Redis key prefix; `dispose()` drops both. */
export async function createTestContext(label: string): Promise<TestContext> {
  const database = await createTestDatabase(label);
  const { redisUrl } = loadTestSettings();
  const prefix = `ssa-audit-test-${randomBytes(5).toString('hex')}`;
  const env = (overrides: Record<string, string> = {}) => ({
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    SENSITIVE_HASH_KEY: TEST_SENSITIVE_HASH_KEY,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    ...overrides,
  });
  return {
    database,
    redisUrl,
    prefix,
    env,
    config: (overrides) => loadConfig(env(overrides)),
    async dispose() {
      await deleteQueueKeys(redisUrl, prefix);
      await database.drop();
    },
  };
}
