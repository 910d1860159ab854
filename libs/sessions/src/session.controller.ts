import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiCreatedResponse, ApiOkResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { PostMessageDto, RunDto, RunListDto, RunService } from '@h/runs';
import { CreateSessionDto, SessionDto, SessionListDto, SessionStateDto, UpdateSessionDto } from './session.dto';
import { SessionService } from './session.service';

@ApiTags('sessions')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class SessionController {
  constructor(
    private readonly sessions: SessionService,
    private readonly runs: RunService,
  ) {}

  @Get('workspaces/:id/sessions')
  @Access('workspace', 'id', 'viewer')
  @ApiOkResponse({ type: SessionListDto, description: 'Most recently active first' })
  listSessions(@Param('id') workspaceId: string): Promise<SessionListDto> {
    return this.sessions.list(workspaceId);
  }

  @Post('workspaces/:id/sessions')
  @Access('workspace', 'id', 'member')
  @ApiCreatedResponse({ type: SessionDto })
  createSession(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') workspaceId: string,
    @Body() body: CreateSessionDto,
    @ClientIp() ip: string | null,
  ): Promise<SessionDto> {
    return this.sessions.create(principal, access, workspaceId, body, ip);
  }

  @Get('sessions/:id')
  @Access('session', 'id', 'viewer')
  @ApiOkResponse({ type: SessionDto })
  getSession(@Param('id') id: string): Promise<SessionDto> {
    return this.sessions.get(id);
  }

  @Patch('sessions/:id')
  @Access('session', 'id', 'member')
  @ApiOkResponse({ type: SessionDto })
  updateSession(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') id: string,
    @Body() body: UpdateSessionDto,
    @ClientIp() ip: string | null,
  ): Promise<SessionDto> {
    return this.sessions.update(principal, access, id, body, ip);
  }

  @Get('sessions/:id/state')
  @Access('session', 'id', 'viewer')
  @ApiOkResponse({ type: SessionStateDto, description: 'Todos, summary, usage and the active run' })
  getSessionState(@Param('id') id: string): Promise<SessionStateDto> {
    return this.sessions.state(id);
  }

  @Post('sessions/:id/messages')
  @HttpCode(202)
  @Access('session', 'id', 'member')
  @ApiAcceptedResponse({ type: RunDto, description: 'The run for this message (queued or already running); a repeated clientMessageId returns the same run' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'QUOTA_EXCEEDED: TEAM_MAX_ACTIVE_RUNS or TEAM_MAX_RUNNING_SANDBOXES reached' })
  async postMessage(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') id: string,
    @Body() body: PostMessageDto,
  ): Promise<RunDto> {
    return (await this.runs.postMessage(principal, access, id, body)).run;
  }

  @Get('sessions/:id/runs')
  @Access('session', 'id', 'viewer')
  @ApiOkResponse({ type: RunListDto, description: 'Newest first' })
  listRuns(@Param('id') id: string): Promise<RunListDto> {
    return this.runs.list(id);
  }

  @Get('runs/:id')
  @Access('run', 'id', 'viewer')
  @ApiOkResponse({ type: RunDto })
  getRun(@Param('id') id: string): Promise<RunDto> {
    return this.runs.get(id);
  }

  @Post('runs/:id/cancel')
  @HttpCode(202)
  @Access('run', 'id', 'member')
  @ApiAcceptedResponse({ type: RunDto, description: 'Cancelled, or cancelling (the worker stops it within a second)' })
  cancelRun(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') id: string,
    @ClientIp() ip: string | null,
  ): Promise<RunDto> {
    return this.runs.cancel(principal, access, id, ip);
  }
}
