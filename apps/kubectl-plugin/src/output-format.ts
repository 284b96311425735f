import { stringify } from 'yaml';
import { usageError } from './plugin.error.js';

/** `-o`: human output (the default), or the service's answer as JSON or YAML for scripts. */
export type OutputFormat = 'human' | 'json' | 'yaml';

export function parseOutputFormat(value: string | undefined): OutputFormat {
  if (value === undefined || value === '') return 'human';
  if (value === 'json' || value === 'yaml') return value;
  throw usageError(`unknown output format "${value}": use -o json or -o yaml (human output without -o)`);
}

/** The answer for scripts, newline-terminated. */
export function renderStructured(format: Exclude<OutputFormat, 'human'>, value: unknown): string {
  return format === 'json' ? `${JSON.stringify(value, null, 2)}\n` : stringify(value);
}
