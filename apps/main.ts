import { ConfigError, loadConfig } from '../libs/config/src/index.js';
import { createLogger } from '../libs/common/src/index.js';
import { openDatabase, prepareSchema } from '../libs/store/src/index.js';
import { ROLES, RoleConfigurationError, startApplication, type Role } from './bootstrap.js';
import { noClusterConfigured, startDefaultSandbox } from './sandbox-default.js';

const USAGE = `usage: node dist/apps/main.js [all|api|worker|watcher|migrate]
  all      api, worker and watcher in one process; migrates first (npm start)
  api      HTTP API only          (npm run start:api)
  worker   queue processors only  (npm run start:worker)
  watcher  cluster watcher only   (npm run start:watcher)
  migrate  run migrations, create partitions, exit (npm run migrate)`;

/** Under Kubernetes' default terminationGracePeriodSeconds (30), so the process exits before SIGKILL. */
const STOP_DEADLINE_MS = 25_000;

async function main(argv: readonly string[]): Promise<number> {
  const command = argv[0] ?? 'all';
  if (argv.length > 1 || !['all', 'migrate', ...ROLES].includes(command)) {
    process.stderr.write(`${USAGE}\n`);
    return 64;
  }
  let config = loadConfig();
  const logger = createLogger(config.logLevel, { command });
  if (command === 'migrate') {
    const db = await openDatabase(config.database);
    try {
      logger.info({ database: config.database.kind }, 'migrating');
      const applied = await prepareSchema(db, config);
      logger.info({ applied }, applied.length > 0 ? 'migrations applied' : 'schema up to date');
    } finally {
      await db.close();
    }
    return 0;
  }
  const roles: Role[] = command === 'all' ? [...ROLES] : [command as Role];
  let sandbox: { close(): Promise<void> } | undefined;
  if (command === 'all' && noClusterConfigured(config)) {
    ({ config, sandbox } = await startDefaultSandbox(config, logger));
  }
  const started = await startApplication(config, { roles, migrate: command === 'all', logger });
  const running = { close: async () => (await started.close(), await sandbox?.close()) };
  // Graceful stop within a pod's default grace period (30 s): the watcher flushes (≤ 10 s), workers
  // finish their current job (≤ WORKER_STOP_TIMEOUT_MS, else it is handed over), then the database closes.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    const force = setTimeout(() => {
      logger.error({ signal }, `did not stop within ${STOP_DEADLINE_MS / 1000} s; exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS);
    force.unref();
    running.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return -1; // keep running until a signal
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof ConfigError || e instanceof RoleConfigurationError) process.stderr.write(`ssa-audit: ${e.message}\n`);
    else process.stderr.write(`ssa-audit: failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(e instanceof ConfigError ? 78 : 1);
  },
);
