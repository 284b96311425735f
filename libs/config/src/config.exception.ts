import type { ConfigIssue } from './config.types.js';

/** Thrown at start-up when the environment does not describe a valid configuration; lists every problem. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID' as const;

  constructor(readonly issues: readonly ConfigIssue[]) {
    super(
      `Invalid configuration (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n` +
        issues.map((i) => `  - ${i.variable}: ${i.message}`).join('\n'),
    );
    this.name = 'ConfigError';
  }
}
