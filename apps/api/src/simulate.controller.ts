import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { errorSchema } from './common.dto.js';
import { OwnershipApiService } from './ownership-api.service.js';
import { simulateApplyRequestSchema, simulateApplyResponseSchema, type SimulateApplyRequestDto, type SimulateApplyResponseDto } from './simulate.dto.js';

@ApiTags('simulate')
@Controller('v1/simulate')
export class SimulateController {
  constructor(@Inject(OwnershipApiService) private readonly api: OwnershipApiService) {}

  @Post('apply')
  @HttpCode(200)
  @ApiOperation({ summary: 'What a server-side apply would do to the latest state (dry run, offline): conflicts with kubectl\'s message, pruned, kept' })
  @ApiOkResponse({ standardSchema: simulateApplyResponseSchema })
  @ApiBadRequestResponse({ description: 'invalid-manifest, invalid-request', standardSchema: errorSchema })
  apply(@Body({ schema: simulateApplyRequestSchema }) body: SimulateApplyRequestDto): Promise<SimulateApplyResponseDto> {
    return this.api.simulateApply(body);
  }
}
