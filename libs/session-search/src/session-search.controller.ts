import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WorkspaceRepository } from '@h/db';
import { ErrorResponseDto } from '@h/http';
import { Access } from '@h/identity';
import { SessionSearchQueryDto, SessionSearchResponseDto } from './session-search.dto';
import { SessionSearchService } from './session-search.service';
import { toTsquery } from './search-query';

@ApiTags('sessions')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class SessionSearchController {
  constructor(
    private readonly search: SessionSearchService,
    private readonly workspaces: WorkspaceRepository,
  ) {}

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

  // Every member of a team may open each of its workspaces, so the team's search covers them all.
  @Get('teams/:teamId/sessions/search')
  @Access('team', 'teamId', 'viewer')
  @ApiOperation({ summary: "Full-text search of the sessions of all the team's workspaces: the best-matching event of each, with a snippet" })
  @ApiOkResponse({ type: SessionSearchResponseDto })
  async searchTeamSessions(@Param('teamId') teamId: string, @Query() query: SessionSearchQueryDto): Promise<SessionSearchResponseDto> {
    const tsquery = toTsquery(query.q);
    const workspaceIds = tsquery ? (await this.workspaces.listByTeam(teamId)).map((w) => w.id) : [];
    if (!tsquery || workspaceIds.length === 0) return { items: [], partial: false };
    const found = await this.search.searchSessions({ workspaceIds, excludeSession: null, tsquery });
    return { items: found.hits, partial: found.partial };
  }
}
