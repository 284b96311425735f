import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ErrorFilter } from './error.filter.js';
import { EventsController } from './events.controller.js';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';
import { ReadinessService } from './readiness.service.js';

/** The API role. Needs the global config, observability, store and queue modules. */
@Module({
  controllers: [HealthController, MetricsController, EventsController],
  providers: [ReadinessService, { provide: APP_FILTER, useClass: ErrorFilter }],
})
export class ApiModule {}
