import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DeadLetterRepository } from '../../../libs/store/src/index.js';
import { errorSchema } from './common.dto.js';
import { listDeadLettersRequestSchema, listDeadLettersResponseSchema, type ListDeadLettersRequestDto, type ListDeadLettersResponseDto } from './dead-letters.dto.js';

@ApiTags('dead-letters')
@ApiBadRequestResponse({ standardSchema: errorSchema })
@Controller('v1/dead-letters')
export class DeadLettersController {
  constructor(@Inject(DeadLetterRepository) private readonly deadLetters: DeadLetterRepository) {}

  @Get()
  @ApiOperation({ summary: 'Observations that could never be stored (a permanent error), with the reason: the holes in the record, newest first' })
  @ApiOkResponse({ standardSchema: listDeadLettersResponseSchema })
  async list(@Query({ schema: listDeadLettersRequestSchema }) q: ListDeadLettersRequestDto): Promise<ListDeadLettersResponseDto> {
    const page = await this.deadLetters.list({ ...(q.cluster ? { cluster: q.cluster } : {}), ...(q.cursor ? { cursor: q.cursor } : {}), limit: q.limit });
    return {
      items: page.items.map((d) => ({ ...d, failedAt: d.failedAt.toISOString(), observation: d.observation as Record<string, unknown> | null })),
      nextCursor: page.nextCursor,
    };
  }
}
