import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiOkResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { PostMessageDto, RunDto, RunListDto } from './run.dto';
import { RunService } from './run.service';

// A message starts a run: the routes are a session's, the domain is the run's.
@ApiTags('sessions')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class RunController {
  constructor(private readonly runs: RunService) {}

  @Post('sessions/:id/messages')
  @HttpCode(202)
  @Access('session', 'id', 'member', { scope: 'run' })
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

  @Post('runs/:id/cancel')
  @HttpCode(202)
  @Access('run', 'id', 'member', { scope: 'run' })
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
