import { PluginError, type PluginErrorKind } from './plugin.error.js';

/** 0 found, 1 error, 2 bad usage, 3 not found. */
export type ExitCode = 0 | 1 | 2 | 3;

const EXIT_CODE_OF_KIND: Readonly<Record<PluginErrorKind, ExitCode>> = { usage: 2, 'not-found': 3, failed: 1 };

/** The exit code of whatever a command threw: anything but a {@link PluginError} is an error (1). */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof PluginError ? EXIT_CODE_OF_KIND[error.kind] : 1;
}
