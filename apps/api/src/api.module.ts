import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { DeadLettersController } from './dead-letters.controller.js';
import { ErrorFilter } from './error.filter.js';
import { EventStreamService } from './event-stream.service.js';
import { EventsController } from './events.controller.js';
import { FindingsController } from './findings.controller.js';
import { HealthController } from './health.controller.js';
import { ManagersController } from './managers.controller.js';
import { MetricsController } from './metrics.controller.js';
import { ObjectsController } from './objects.controller.js';
import { OwnershipApiService } from './ownership-api.service.js';
import { ReadinessService } from './readiness.service.js';
import { ReplaysController } from './replays.controller.js';
import { SimulateController } from './simulate.controller.js';
import { createValidationPipe } from './validation.pipe.js';

/** The API role. Needs the global config, observability, store and queue modules. */
@Module({
  controllers: [
    HealthController,
    MetricsController,
    ObjectsController,
    ManagersController,
    FindingsController,
    SimulateController,
    EventsController,
    ReplaysController,
    DeadLettersController,
  ],
  providers: [
    ReadinessService,
    OwnershipApiService,
    EventStreamService,
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_FILTER, useClass: ErrorFilter },
  ],
})
export class ApiModule {}
