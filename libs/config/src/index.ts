export { loadConfig, loadTestSettings, type TestSettings } from './load-config.js';
export { ConfigError } from './config.exception.js';
export { APP_CONFIG } from './config.constant.js';
export type {
  AuthConfig,
  AppConfig,
  CaptureConfig,
  ConfigIssue,
  DatabaseConfig,
  LogLevel,
  QueueConfig,
  WatcherConfig,
  QueueTransportConfig,
  SensitiveHashKeyConfig,
  ResourcePattern,
} from './config.types.js';
export { ConfigModule } from './config.module.js';
export { resolveSensitiveHashKey } from './sensitive-hash-key.js';
