import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../../../libs/common/src/index.js';
import { EventReader, EventTail } from '../../../libs/store/src/index.js';
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
import { StreamSlots } from './stream-slots.service.js';
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
    StreamSlots,
    {
      provide: EventTail,
      inject: [EventReader, LOGGER],
      useFactory: (reader: EventReader, logger: Logger) =>
        new EventTail(reader, { pollMs: 500, onError: (err: unknown) => logger.warn({ err }, 'event stream tail: read failed, retrying') }),
    },
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_FILTER, useClass: ErrorFilter },
  ],
})
export class ApiModule {}
