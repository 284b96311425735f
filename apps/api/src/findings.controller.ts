import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { errorSchema } from './common.dto.js';
import { listFindingsRequestSchema, listFindingsResponseSchema, type ListFindingsRequestDto, type ListFindingsResponseDto } from './findings.dto.js';
import { OwnershipApiService } from './ownership-api.service.js';
import { CurrentCaller, RequireAccess } from './access-rule.decorator.js';
import type { Caller } from '../../../libs/audit/src/index.js';

@ApiTags('findings')
@Controller('v1/findings')
@RequireAccess('object-list')
export class FindingsController {
  constructor(@Inject(OwnershipApiService) private readonly api: OwnershipApiService) {}

  @Get()
  @ApiOperation({ summary: 'Contested fields cluster-wide: Apply/Update co-owned, replicas contested, appliers that will conflict, CSA leftovers, recent forced takeovers' })
  @ApiOkResponse({ standardSchema: listFindingsResponseSchema })
  @ApiBadRequestResponse({ standardSchema: errorSchema })
  list(@Query({ schema: listFindingsRequestSchema }) q: ListFindingsRequestDto, @CurrentCaller() caller: Caller): Promise<ListFindingsResponseDto> {
    return this.api.findings(q, caller);
  }
}
