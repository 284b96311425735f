import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock } from '../../../libs/common/src/index.js';
import { ReplayProducer } from '../../../libs/queue/src/index.js';
import { errorSchema } from './common.dto.js';
import { replayRequestSchema, replayResponseSchema, type ReplayRequestDto, type ReplayResponseDto } from './replays.dto.js';

@ApiTags('replays')
@Controller('v1/replays')
export class ReplaysController {
  constructor(
    @Inject(ReplayProducer) private readonly replays: ReplayProducer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({ summary: 'Rebuild projections from events (one object, one cluster, or everything); progress in the job and the worker log' })
  @ApiAcceptedResponse({ standardSchema: replayResponseSchema })
  @ApiBadRequestResponse({ standardSchema: errorSchema })
  async request(@Body({ schema: replayRequestSchema }) body: ReplayRequestDto): Promise<ReplayResponseDto> {
    const requestedAt = this.clock.now().toISOString();
    return { jobId: await this.replays.enqueue(body.scope, requestedAt), scope: body.scope, requestedAt };
  }
}
