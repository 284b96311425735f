import { Controller, Get, Header, Inject } from '@nestjs/common';
import { METRICS, type Metrics } from '../../../libs/common/src/index.js';

@Controller()
export class MetricsController {
  constructor(@Inject(METRICS) private readonly metrics: Metrics) {}

  /** Prometheus text format. */
  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metricsText(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
