import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { errorSchema } from './common.dto.js';
import {
  listManagersRequestSchema,
  listManagersResponseSchema,
  managerFieldsRequestSchema,
  managerFieldsResponseSchema,
  managerNameParams,
  type ListManagersRequestDto,
  type ListManagersResponseDto,
  type ManagerFieldsRequestDto,
  type ManagerFieldsResponseDto,
  type ManagerNameParamsDto,
} from './managers.dto.js';
import { OwnershipApiService } from './ownership-api.service.js';
import { CurrentCaller, RequireAccess } from './access-rule.decorator.js';
import type { Caller } from '../../../libs/audit/src/index.js';

@ApiTags('managers')
@ApiBadRequestResponse({ standardSchema: errorSchema })
@Controller('v1/managers')
@RequireAccess('object-list')
export class ManagersController {
  constructor(@Inject(OwnershipApiService) private readonly api: OwnershipApiService) {}

  @Get()
  @ApiOperation({ summary: 'Every field manager, with what it owns' })
  @ApiOkResponse({ standardSchema: listManagersResponseSchema })
  list(@Query({ schema: listManagersRequestSchema }) q: ListManagersRequestDto, @CurrentCaller() caller: Caller): Promise<ListManagersResponseDto> {
    return this.api.managers(q, caller);
  }

  @Get(':name/fields')
  @ApiOperation({ summary: 'The fields one manager owns, object by object' })
  @ApiOkResponse({ standardSchema: managerFieldsResponseSchema })
  fields(@Param({ schema: managerNameParams }) p: ManagerNameParamsDto, @Query({ schema: managerFieldsRequestSchema }) q: ManagerFieldsRequestDto, @CurrentCaller() caller: Caller): Promise<ManagerFieldsResponseDto> {
    return this.api.managerFields(p.name, q, caller);
  }
}
