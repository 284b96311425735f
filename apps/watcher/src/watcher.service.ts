import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../../libs/config/src/index.js';
import { LOGGER } from '../../../libs/common/src/index.js';

/** The watcher role. List/watch of the clusters comes with its own issue; for now it starts and idles. */
@Injectable()
export class WatcherService implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.logger.info(
      { contexts: this.config.kube.contexts, include: this.config.resources.include, exclude: this.config.resources.exclude },
      'watcher started (idle: cluster list/watch is not implemented yet)',
    );
  }
}
