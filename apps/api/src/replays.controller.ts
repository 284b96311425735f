import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock } from '../../../libs/common/src/index.js';
import { ReplayProducer } from '../../../libs/queue/src/index.js';
import { ApiNotFoundError } from './api.error.js';
import { errorSchema } from './common.dto.js';
import { RequireAccess } from './access-rule.decorator.js';
import {
  replayJobParams,
  replayRequestSchema,
  replayResponseSchema,
  replayStatusResponseSchema,
  type ReplayJobParamsDto,
  type ReplayRequestDto,
  type ReplayResponseDto,
  type ReplayStatusResponseDto,
} from './replays.dto.js';

@ApiTags('replays')
@Controller('v1/replays')
export class ReplaysController {
  constructor(
    @Inject(ReplayProducer) private readonly replays: ReplayProducer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @RequireAccess('replay-create')
  @HttpCode(202)
  @ApiOperation({ summary: 'Rebuild projections from events (one object, one cluster, or everything); follow it with GET /v1/replays/{jobId}' })
  @ApiAcceptedResponse({ standardSchema: replayResponseSchema })
  @ApiBadRequestResponse({ standardSchema: errorSchema })
  async request(@Body({ schema: replayRequestSchema }) body: ReplayRequestDto): Promise<ReplayResponseDto> {
    const requestedAt = this.clock.now().toISOString();
    return { jobId: await this.replays.enqueue(body.scope, requestedAt), scope: body.scope, requestedAt };
  }

  @Get(':jobId')
  @RequireAccess('replay-read')
  @ApiOperation({ summary: "How a replay is going: its state, the worker's last progress, and its result or failure" })
  @ApiOkResponse({ standardSchema: replayStatusResponseSchema })
  @ApiBadRequestResponse({ description: 'Not a replay job id (invalid-request)', standardSchema: errorSchema })
  @ApiNotFoundResponse({ description: 'Unknown job (replay-not-found): never requested, or its record expired', standardSchema: errorSchema })
  async status(@Param({ schema: replayJobParams }) p: ReplayJobParamsDto): Promise<ReplayStatusResponseDto> {
    const s = await this.replays.status(p.jobId);
    if (!s) throw new ApiNotFoundError('replay-not-found', `no replay job ${p.jobId} (never requested, or its record expired)`, 'jobId');
    return { ...s, progress: s.progress && { ...s.progress }, result: s.result && { ...s.result } };
  }
}
