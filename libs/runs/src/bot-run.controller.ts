import { Body, Controller, Get, Header, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiOkResponse, ApiProduces, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { CreateRunDto, RunResultDto, RunWaitQueryDto, WorkspaceRunListDto, WorkspaceRunsQueryDto } from './bot-run.dto';
import { BotRunService } from './bot-run.service';
import { RunResultService } from './run-result.service';

const RUN_EXAMPLE = {
  id: '5b0e8f0c-6c2a-4c51-9c55-2f1b1c0d9a11',
  sessionId: '0f7c2d4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  workspaceId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  status: 'completed',
  title: 'The failing test in test/math.test.js needs fixing.',
  summary: '### Changes Made\n- `src/math.js`: `add(a, b)` returned `a - b`; it now returns `a + b`.',
  changes: [{ id: 'c1d2e3f4-a5b6-4c7d-8e9f-a0b1c2d3e4f5', runId: '5b0e8f0c-6c2a-4c51-9c55-2f1b1c0d9a11', toolCallId: 'call_3', kind: 'modify', path: 'src/math.js', fromPath: null, added: 1, removed: 1, binary: false, tooLarge: false }],
  diff: 'diff --git a/src/math.js b/src/math.js\n--- a/src/math.js\n+++ b/src/math.js\n@@ -2,3 +2,3 @@\n function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n',
  diffTruncated: false,
  usage: { requests: 5, promptTokens: 41200, completionTokens: 900, cacheHitTokens: 33000, cacheMissTokens: 8200, reasoningTokens: 0, costUsd: 0.0031 },
  pendingPermission: null,
};

// The bot API (issue 11 point 2): one call makes a session and its first run; a long poll waits
// for the outcome; a run's result carries its summary, diff and usage.
@ApiTags('runs')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class BotRunController {
  constructor(
    private readonly bots: BotRunService,
    private readonly results: RunResultService,
  ) {}

  @Post('workspaces/:id/runs')
  @HttpCode(202)
  @Access('workspace', 'id', 'member', { scope: 'run' })
  @ApiAcceptedResponse({
    type: RunResultDto,
    description: 'A new session with the prompt as its first message, and that message\'s run (queued or already running); a repeated clientRunId answers the same run',
    example: { ...RUN_EXAMPLE, status: 'queued', summary: null, changes: [], diff: '' },
  })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'QUOTA_EXCEEDED: TEAM_MAX_ACTIVE_RUNS or TEAM_MAX_RUNNING_SANDBOXES reached' })
  createRun(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') workspaceId: string,
    @Body() body: CreateRunDto,
    @ClientIp() ip: string | null,
  ): Promise<RunResultDto> {
    return this.bots.create(principal, access, workspaceId, body, ip);
  }

  @Get('workspaces/:id/runs')
  @Access('workspace', 'id', 'viewer')
  @ApiOkResponse({ type: WorkspaceRunListDto, description: "The workspace's runs, newest first, with each session's title and the run's summary" })
  listWorkspaceRuns(@Param('id') workspaceId: string, @Query() query: WorkspaceRunsQueryDto): Promise<WorkspaceRunListDto> {
    return this.results.listByWorkspace(workspaceId, query);
  }

  @Get('runs/:id')
  @Access('run', 'id', 'viewer')
  @ApiOkResponse({ type: RunResultDto, description: 'With ?wait=S, answers once the run ended or waits on a permission, or after S seconds (at most RUN_WAIT_MAX_SECONDS) with the run as it is', example: RUN_EXAMPLE })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'TOO_MANY_STREAMS: the caller already holds STREAMS_PER_PRINCIPAL long polls' })
  getRun(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Query() query: RunWaitQueryDto): Promise<RunResultDto> {
    return this.results.get(id, query.wait ?? 0, principal);
  }

  @Get('runs/:id/diff')
  @Access('run', 'id', 'viewer')
  @Header('content-type', 'text/x-diff; charset=utf-8')
  @ApiProduces('text/x-diff')
  @ApiOkResponse({ description: "Unified diff (git format) of the run's changes still in effect, whole; empty when none", schema: { type: 'string', example: RUN_EXAMPLE.diff } })
  getRunDiff(@Param('id') id: string): Promise<string> {
    return this.results.diff(id);
  }
}
