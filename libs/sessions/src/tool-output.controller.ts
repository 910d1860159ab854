import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ToolOutputRepository } from '@h/db';
import { AppException } from '@h/http';
import { Access } from '@h/identity';
import { OUTPUT_PAGE_DEFAULT_BYTES, ToolOutputDto, ToolOutputQueryDto } from './tool-output.dto';

@ApiTags('events')
@Controller('v1/sessions/:id/outputs')
export class ToolOutputController {
  constructor(private readonly outputs: ToolOutputRepository) {}

  // Same access as the session's events: the event log holds the preview and this locator.
  @Get(':outputId')
  @Access('session', 'id', 'viewer')
  @ApiOperation({
    summary: 'The full text behind a `[cmd #N]` tool result, in byte ranges',
    description:
      'tool.end events carry only the preview the model saw and `outputId`/`outputBytes`/`outputTruncated`; the full output (up to TOOL_OUTPUT_MAX_BYTES) is read here.',
  })
  @ApiParam({ name: 'outputId', description: 'N of `[cmd #N]` (the event\'s `outputId`)', example: 3 })
  @ApiOkResponse({ type: ToolOutputDto })
  @ApiNotFoundResponse({ description: 'OUTPUT_NOT_FOUND: no such output in this session' })
  async getToolOutput(@Param('id') id: string, @Param('outputId') outputId: string, @Query() query: ToolOutputQueryDto): Promise<ToolOutputDto> {
    if (!/^[1-9]\d{0,8}$/.test(outputId)) throw AppException.badRequest('BAD_OUTPUT_ID', 'outputId must be the N of [cmd #N], a positive integer');
    const slice = await this.outputs.slice(id, Number(outputId), query.offset ?? 0, query.limit ?? OUTPUT_PAGE_DEFAULT_BYTES);
    if (!slice) throw AppException.notFound('Output', 'OUTPUT_NOT_FOUND');
    return {
      outputId: slice.number,
      label: slice.label,
      bytes: slice.bytes,
      truncated: slice.truncated,
      offset: slice.offset,
      content: slice.content,
      nextOffset: slice.nextOffset,
    };
  }
}
