import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { errorSchema, objectIdParams, type ObjectIdParamsDto } from './common.dto.js';
import {
  explainResponseSchema,
  fieldHistoryResponseSchema,
  fieldRequestSchema,
  fieldResponseSchema,
  listObjectsRequestSchema,
  listObjectsResponseSchema,
  ownershipRequestSchema,
  ownershipResponseSchema,
  transitionsRequestSchema,
  transitionsResponseSchema,
  type ExplainResponseDto,
  type FieldHistoryResponseDto,
  type FieldRequestDto,
  type FieldResponseDto,
  type ListObjectsRequestDto,
  type OwnershipRequestDto,
  type ListObjectsResponseDto,
  type OwnershipResponseDto,
  type TransitionsRequestDto,
  type TransitionsResponseDto,
} from './objects.dto.js';
import { OwnershipApiService } from './ownership-api.service.js';
import { CurrentCaller, RequireAccess } from './access-rule.decorator.js';
import type { Caller } from '../../../libs/audit/src/index.js';

@ApiTags('objects')
@ApiBadRequestResponse({ description: 'A bad parameter (code names why: invalid-at, invalid-path, invalid-cursor, invalid-request)', standardSchema: errorSchema })
@Controller('v1/objects')
@RequireAccess('object')
export class ObjectsController {
  constructor(@Inject(OwnershipApiService) private readonly api: OwnershipApiService) {}

  @Get()
  @RequireAccess('object-list')
  @ApiOperation({ summary: 'Tracked objects (those the caller may get)' })
  @ApiOkResponse({ standardSchema: listObjectsResponseSchema })
  list(@Query({ schema: listObjectsRequestSchema }) q: ListObjectsRequestDto, @CurrentCaller() caller: Caller): Promise<ListObjectsResponseDto> {
    return this.api.listObjects(q, caller);
  }

  @Get(':id/ownership')
  @ApiOperation({ summary: "The object's field tree, each node with its owners" })
  @ApiOkResponse({ standardSchema: ownershipResponseSchema })
  @ApiNotFoundResponse({ standardSchema: errorSchema })
  ownership(@Param({ schema: objectIdParams }) p: ObjectIdParamsDto, @Query({ schema: ownershipRequestSchema }) q: OwnershipRequestDto): Promise<OwnershipResponseDto> {
    return this.api.ownership(p.id, q);
  }

  @Get(':id/fields/history')
  @ApiOperation({ summary: 'Owners and values of one field over time' })
  @ApiOkResponse({ standardSchema: fieldHistoryResponseSchema })
  @ApiNotFoundResponse({ standardSchema: errorSchema })
  fieldHistory(@Param({ schema: objectIdParams }) p: ObjectIdParamsDto, @Query({ schema: fieldRequestSchema }) q: FieldRequestDto): Promise<FieldHistoryResponseDto> {
    return this.api.fieldHistory(p.id, q);
  }

  @Get(':id/fields')
  @ApiOperation({ summary: 'Who owns one field' })
  @ApiOkResponse({ standardSchema: fieldResponseSchema })
  @ApiNotFoundResponse({ standardSchema: errorSchema })
  field(@Param({ schema: objectIdParams }) p: ObjectIdParamsDto, @Query({ schema: fieldRequestSchema }) q: FieldRequestDto): Promise<FieldResponseDto> {
    return this.api.field(p.id, q);
  }

  @Get(':id/transitions')
  @ApiOperation({ summary: 'Every ownership transition of the object, newest first' })
  @ApiOkResponse({ standardSchema: transitionsResponseSchema })
  @ApiNotFoundResponse({ standardSchema: errorSchema })
  transitions(@Param({ schema: objectIdParams }) p: ObjectIdParamsDto, @Query({ schema: transitionsRequestSchema }) q: TransitionsRequestDto): Promise<TransitionsResponseDto> {
    return this.api.transitions(p.id, q);
  }

  @Get(':id/explain')
  @ApiOperation({ summary: 'Why a field is (still) there, or why it is gone, with remedies' })
  @ApiOkResponse({ standardSchema: explainResponseSchema })
  @ApiNotFoundResponse({ standardSchema: errorSchema })
  explain(@Param({ schema: objectIdParams }) p: ObjectIdParamsDto, @Query({ schema: fieldRequestSchema }) q: FieldRequestDto): Promise<ExplainResponseDto> {
    return this.api.explain(p.id, q);
  }
}
