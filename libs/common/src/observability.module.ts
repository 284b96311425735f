import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import { CLOCK, systemClock } from './clock.js';
import { LOGGER, METRICS, Metrics } from './metrics.registry.js';

/** The process-wide logger, metrics registry and clock. */
@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(logger: Logger, metrics: Metrics): DynamicModule {
    return {
      module: ObservabilityModule,
      providers: [
        { provide: LOGGER, useValue: logger },
        { provide: METRICS, useValue: metrics },
        { provide: CLOCK, useValue: systemClock },
      ],
      exports: [LOGGER, METRICS, CLOCK],
    };
  }
}
