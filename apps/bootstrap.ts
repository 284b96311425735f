import 'reflect-metadata';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ConfigModule, type AppConfig } from '../libs/config/src/index.js';
import { Metrics, NestPinoLogger, ObservabilityModule, createLogger, type Logger } from '../libs/common/src/index.js';
import { StoreModule } from '../libs/store/src/index.js';
import { QueueModule } from '../libs/queue/src/index.js';

// The composition root: the only file that puts the roles (apps) together in one process.

export const ROLES = ['api', 'worker', 'watcher'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Each role's modules are imported only when the process runs that role: a worker never loads the
 * Kubernetes client, the HTTP stack or the OpenAPI generator (each costs tens of MiB of memory).
 */
const ROLE_MODULES: Record<Role, () => Promise<DynamicModule['module']>> = {
  api: async () => (await import('./api/src/api.module.js')).ApiModule,
  worker: async () => (await import('./worker/src/worker.module.js')).WorkerModule,
  watcher: async () => (await import('./watcher/src/watcher.module.js')).WatcherModule,
};

export interface StartOptions {
  readonly roles: readonly Role[];
  /** Run migrations (and create partitions) before starting: the all-in-one mode does. */
  readonly migrate: boolean;
  readonly logger?: Logger;
  readonly metrics?: Metrics;
}

export interface RunningApplication {
  readonly app: INestApplicationContext;
  /** Base URL of the HTTP server when the api role runs. */
  readonly url?: string;
  close(): Promise<void>;
}

/** A role that cannot run on its own in this configuration, explained. */
export class RoleConfigurationError extends Error {
  readonly code = 'ROLE_CONFIGURATION' as const;
}

function checkRoles(config: AppConfig, roles: readonly Role[]): void {
  const all = ROLES.every((r) => roles.includes(r));
  if (all) return;
  if (config.database.kind === 'embedded') {
    throw new RoleConfigurationError('the embedded database (no DATABASE_URL) only runs with all roles in one process (`npm start`); set DATABASE_URL to run roles apart');
  }
  if (config.queue.transport.driver === 'in-process' && (roles.includes('worker') || roles.includes('watcher'))) {
    throw new RoleConfigurationError('in-process jobs (no REDIS_URL) only run with all roles in one process (`npm start`); set REDIS_URL to run roles apart');
  }
}

@Module({})
class RootModule {
  static async for(config: AppConfig, roles: readonly Role[], migrate: boolean, logger: Logger, metrics: Metrics): Promise<DynamicModule> {
    const kubeAuth = roles.includes('api') ? [(await import('../libs/kube/src/index.js')).KubeAuthModule.forRoot(config)] : [];
    const roleModules = await Promise.all(roles.map((r) => ROLE_MODULES[r]()));
    return {
      module: RootModule,
      imports: [
        ConfigModule.forRoot(config),
        ObservabilityModule.forRoot(logger, metrics),
        StoreModule.forRoot({ migrateOnStart: migrate }),
        QueueModule,
        ...kubeAuth,
        ...roleModules,
      ],
    };
  }
}

/** Builds and starts the application with the given roles. */
export async function startApplication(config: AppConfig, options: StartOptions): Promise<RunningApplication> {
  checkRoles(config, options.roles);
  const logger = options.logger ?? createLogger(config.logLevel, { roles: options.roles.join(',') });
  const metrics = options.metrics ?? new Metrics();
  const root = await RootModule.for(config, options.roles, options.migrate, logger, metrics);
  const nestLogger = new NestPinoLogger(logger.child({ component: 'nest' }));
  if (options.roles.includes('api')) {
    const app = await NestFactory.create<NestExpressApplication>(root, { logger: nestLogger, abortOnError: false });
    // The body parsers (Nest then skips its own, 100 KiB by default): a larger body → 413
    // payload-too-large. The rate limit is a guard: it counts by the authenticated user.
    app.useBodyParser('json', { limit: config.api.bodyLimit });
    app.useBodyParser('urlencoded', { limit: config.api.bodyLimit, extended: true });
    (await import('./api/src/openapi.js')).setupOpenApi(app);
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ host: config.host, port, auth: config.auth.mode, database: config.database.kind, queue: config.queue.transport.driver }, 'ssa-audit listening');
    return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
  }
  // No enableShutdownHooks: apps/main.ts handles SIGTERM itself (Nest's handler would re-raise the
  // signal after closing, so the process would end by the signal instead of exiting 0).
  const app = await NestFactory.createApplicationContext(root, { logger: nestLogger, abortOnError: false });
  logger.info({ database: config.database.kind, queue: config.queue.transport.driver }, 'ssa-audit started');
  return { app, close: () => app.close() };
}
