import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags, ApiForbiddenResponse } from '@nestjs/swagger';
import { errorSchema } from './common.dto.js';
import { OwnershipApiService } from './ownership-api.service.js';
import { simulateApplyRequestSchema, simulateApplyResponseSchema, type SimulateApplyRequestDto, type SimulateApplyResponseDto } from './simulate.dto.js';
import { CurrentCaller, RequireAccess } from './access-rule.decorator.js';
import type { Caller } from '../../../libs/audit/src/index.js';

@ApiTags('simulate')
@Controller('v1/simulate')
@RequireAccess('object-list')
export class SimulateController {
  constructor(@Inject(OwnershipApiService) private readonly api: OwnershipApiService) {}

  @Post('apply')
  @HttpCode(200)
  @ApiOperation({ summary: 'What a server-side apply would do to the latest state (dry run, offline): conflicts with kubectl\'s message, pruned, kept' })
  @ApiOkResponse({ standardSchema: simulateApplyResponseSchema })
  @ApiBadRequestResponse({ description: 'invalid-manifest, invalid-request', standardSchema: errorSchema })
  @ApiForbiddenResponse({ description: '`forbidden` (AUTH_MODE=kubernetes): the caller may not `get` the object the manifest names', standardSchema: errorSchema })
  apply(@Body({ schema: simulateApplyRequestSchema }) body: SimulateApplyRequestDto, @CurrentCaller() caller: Caller): Promise<SimulateApplyResponseDto> {
    return this.api.simulateApply(body, caller);
  }
}
