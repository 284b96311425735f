import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../../../libs/common/src/index.js';
import { EventReader, EventTail, ProjectedEventLog } from '../../../libs/store/src/index.js';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AccessLogMiddleware } from './access-log.middleware.js';
import { AuthenticationGuard } from './authentication.guard.js';
import { AuthorizationGuard } from './authorization.guard.js';
import { ObjectVisibility } from './object-visibility.service.js';
import { RateLimitGuard } from './rate-limit.guard.js';
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
import { WebUiModule } from './web-ui.module.js';

/** The API role. Needs the global config, observability, store and queue modules. */
@Module({
  imports: [WebUiModule.forRoot()],
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
    { provide: ProjectedEventLog, inject: [EventReader], useFactory: (reader: EventReader) => new ProjectedEventLog(reader) },
    {
      provide: EventTail,
      inject: [ProjectedEventLog, LOGGER],
      // The streams serve an event once it is projected: a client that reloads an answer on an event sees it there.
      useFactory: (log: ProjectedEventLog, logger: Logger) =>
        new EventTail(log, { pollMs: 500, onError: (err: unknown) => logger.warn({ err }, 'event stream tail: read failed, retrying') }),
    },
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_FILTER, useClass: ErrorFilter },
    // In this order: who asks, whether they asked too often, then what they may see.
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_GUARD, useClass: AuthorizationGuard },
    ObjectVisibility,
  ],
})
export class ApiModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(AccessLogMiddleware).forRoutes('*path');
  }
}
