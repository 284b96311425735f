import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ReadinessService } from './readiness.service.js';

@Controller()
export class HealthController {
  constructor(@Inject(ReadinessService) private readonly readiness: ReadinessService) {}

  /** Liveness: the process answers. */
  @Get('healthz')
  @HttpCode(200)
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: Postgres and the queue backend answer (503 otherwise). */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) res: Response) {
    const report = await this.readiness.check();
    res.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}
