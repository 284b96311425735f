import { Module } from '@nestjs/common';
import { WatcherService } from './watcher.service.js';

/** The watcher role. */
@Module({ providers: [WatcherService] })
export class WatcherModule {}
