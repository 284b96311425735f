/** Injection token of the frozen {@link AppConfig}. */
export const APP_CONFIG = Symbol('APP_CONFIG');
