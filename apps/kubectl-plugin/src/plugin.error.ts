/** Why a command failed, which decides its exit code (see {@link exitCodeOf}). */
export type PluginErrorKind = 'usage' | 'not-found' | 'failed';

/** The plugin's one error type: a kind and a message meant for the user. */
export class PluginError extends Error {
  constructor(
    readonly kind: PluginErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'PluginError';
  }
}

export const usageError = (message: string): PluginError => new PluginError('usage', message);
export const notFound = (message: string): PluginError => new PluginError('not-found', message);
export const failed = (message: string): PluginError => new PluginError('failed', message);
