import { pino, type Logger } from 'pino';
import type { LogLevel } from '../../config/src/index.js';

export type { Logger } from 'pino';

/** One JSON logger per process; children carry the ids that matter (cluster, object, job id). */
export function createLogger(level: LogLevel, base: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: 'ssa-audit', ...base },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
