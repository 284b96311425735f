import { PluginError, type PluginErrorKind } from './plugin.error.js';

/** 0 found, 1 error, 2 bad usage, 3 not found. */
export type ExitCode = 0 | 1 | 2 | 3;

export function exitCodeOfKind(kind: PluginErrorKind): ExitCode {
  switch (kind) {
    case 'usage':
      return 2;
    case 'not-found':
      return 3;
    case 'failed':
      return 1;
    default:
      return assertUnreachable(kind);
  }
}

/** The exit code of whatever a command threw: anything but a {@link PluginError} is an error (1). */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof PluginError ? exitCodeOfKind(error.kind) : 1;
}

function assertUnreachable(x: never): never {
  throw new Error(`unexpected error kind ${String(x)}`);
}
