import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access } from '@h/identity';
import { SessionSearchQueryDto, SessionSearchResponseDto } from './session-search.dto';
import { SessionSearchService } from './session-search.service';
import { toTsquery } from './search-query';

@ApiTags('sessions')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class SessionSearchController {
  constructor(private readonly search: SessionSearchService) {}

  @Get('workspaces/:id/sessions/search')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: "Full-text search of the workspace's sessions: the best-matching event of each, with a snippet" })
  @ApiOkResponse({ type: SessionSearchResponseDto })
  async searchSessions(@Param('id') workspaceId: string, @Query() query: SessionSearchQueryDto): Promise<SessionSearchResponseDto> {
    const tsquery = toTsquery(query.q);
    if (!tsquery) return { items: [], partial: false };
    const found = await this.search.searchSessions({ workspaceIds: [workspaceId], excludeSession: null, tsquery });
    return { items: found.hits, partial: found.partial };
  }
}
