import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, ClientIp, CurrentPrincipal, Public, type Principal } from '@h/identity';
import {
  CreateTaskDto,
  H2cCancelDto,
  H2cCreatedTaskDto,
  H2cErrorDto,
  H2cHealthDto,
  H2cPermissionAnswerDto,
  H2cTaskDto,
  H2cTaskOutputDto,
  StreamQueryDto,
  TaskIdDto,
  TaskPermissionDto,
  TaskQueryDto,
} from './h2c.dto';
import { H2cStreamService } from './h2c-stream.service';
import { H2cTaskService } from './h2c-task.service';

// h2c's task API at the root of H's URL (not under /api), as the seed describes it. Errors on
// these paths are h2c's `{ "error": "<code>" }` (chosen in libs/http errorBodyFor).
@ApiTags('h2c')
@ApiBadRequestResponse({ type: H2cErrorDto, description: 'invalid_request, workspace_required' })
@ApiUnauthorizedResponse({ type: H2cErrorDto, description: 'unauthorized: no valid API token' })
@Controller()
export class H2cController {
  constructor(
    private readonly tasks: H2cTaskService,
    private readonly streams: H2cStreamService,
  ) {}

  @Public()
  @Get('health')
  @ApiOperation({ summary: 'h2c liveness (no auth)' })
  @ApiOkResponse({ type: H2cHealthDto, example: { status: 'ok' } })
  h2cHealth(): H2cHealthDto {
    return { status: 'ok' };
  }

  @Post('v1/task/create')
  @Authenticated({ scope: 'run', basic: true })
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a task: an H session and its first run, answered at once' })
  @ApiOkResponse({ type: H2cCreatedTaskDto, example: { task_id: 'task_3f2c9a1b7d4e4f0a9c8b6e5d4c3b2a19', status: 'created' } })
  @ApiForbiddenResponse({ type: H2cErrorDto, description: 'forbidden: the token acts below the member role' })
  @ApiTooManyRequestsResponse({ type: H2cErrorDto, description: 'rate_limited: TEAM_MAX_ACTIVE_RUNS or TEAM_MAX_RUNNING_SANDBOXES reached' })
  h2cCreateTask(@CurrentPrincipal() principal: Principal, @Body() body: CreateTaskDto, @ClientIp() ip: string | null): Promise<H2cCreatedTaskDto> {
    return this.tasks.create(principal, body, ip);
  }

  @Post('v1/task/cancel')
  @Authenticated({ scope: 'run', basic: true })
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a queued, running or waiting task' })
  @ApiOkResponse({ type: H2cCancelDto, example: { task_id: 'task_3f2c9a1b7d4e4f0a9c8b6e5d4c3b2a19', status: 'cancelling' } })
  @ApiNotFoundResponse({ type: H2cErrorDto, description: 'not_found' })
  @ApiConflictResponse({ type: H2cErrorDto, description: 'task_finished' })
  h2cCancelTask(@CurrentPrincipal() principal: Principal, @Body() body: TaskIdDto, @ClientIp() ip: string | null): Promise<H2cCancelDto> {
    return this.tasks.cancel(principal, body.task_id, ip);
  }

  @Post('v1/task/permission')
  @Authenticated({ scope: 'run', basic: true })
  @HttpCode(200)
  @ApiOperation({ summary: "Answer the task's permission request (the same decision the IDE makes)" })
  @ApiOkResponse({ type: H2cPermissionAnswerDto, example: { task_id: 'task_3f2c9a1b7d4e4f0a9c8b6e5d4c3b2a19', request_id: '0b7e6f0e-2f4e-4c1a-9a53-52d1f7f3c0aa', behavior: 'allow' } })
  @ApiNotFoundResponse({ type: H2cErrorDto, description: 'not_found' })
  @ApiConflictResponse({ type: H2cErrorDto, description: 'no_pending_request' })
  h2cAnswerPermission(@CurrentPrincipal() principal: Principal, @Body() body: TaskPermissionDto, @ClientIp() ip: string | null): Promise<H2cPermissionAnswerDto> {
    return this.tasks.decide(principal, body, ip);
  }

  @Get('v1/task/output')
  @Authenticated({ scope: 'read', basic: true })
  @ApiOperation({ summary: "The task's result: `pending` until it ended, then `success` with result, exitCode and usage" })
  @ApiOkResponse({
    type: H2cTaskOutputDto,
    example: {
      retrieval_status: 'success',
      task: {
        id: 'task_3f2c9a1b7d4e4f0a9c8b6e5d4c3b2a19',
        status: 'done',
        result: 'Fixed the off-by-one in sum(); the tests pass.',
        exitCode: 0,
        usage: { total_cost_usd: 0.01234, input_tokens: 150, output_tokens: 300, cache_creation_input_tokens: 0, cache_read_input_tokens: 20 },
        queue_position: null,
      },
    },
  })
  @ApiNotFoundResponse({ type: H2cErrorDto, description: 'not_found' })
  h2cTaskOutput(@CurrentPrincipal() principal: Principal, @Query() query: TaskQueryDto): Promise<H2cTaskOutputDto> {
    return this.tasks.output(principal, query.task_id);
  }

  @Get('v1/task/output/stream')
  @Authenticated({ scope: 'read', basic: true })
  @ApiOperation({ summary: 'SSE: data-only frames connected, chunk, permission_request, tool_progress, error, done' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description:
      'text/event-stream of `data: {json}` frames: `connected`, then the task from its start (a reconnect replays it from H\'s event log, so nothing is lost): `chunk` (each whole assistant message), `permission_request` (task_id, request_id, tool_name, input, tool_use_id), `tool_progress`, `error` (reason), and `done` (exitCode) last.',
    schema: { type: 'string', example: 'data: {"type":"connected","taskId":"task_xxx"}\n\ndata: {"type":"chunk","text":"Fixing bug..."}\n\ndata: {"type":"done","exitCode":0}\n\n' },
  })
  @ApiNotFoundResponse({ type: H2cErrorDto, description: 'not_found' })
  @ApiTooManyRequestsResponse({ type: H2cErrorDto, description: 'rate_limited: the token holds STREAMS_PER_PRINCIPAL live streams' })
  h2cTaskStream(@CurrentPrincipal() principal: Principal, @Query() query: StreamQueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.streams.stream(principal, query.task_id ?? query.id, req, res);
  }

  @Get('v1/task')
  @Authenticated({ scope: 'read', basic: true })
  @ApiOperation({ summary: "The task's status (also at /v1/task/)" })
  @ApiOkResponse({
    type: H2cTaskDto,
    example: { id: 'task_3f2c9a1b7d4e4f0a9c8b6e5d4c3b2a19', status: 'queued', result: null, exitCode: null, usage: { total_cost_usd: 0, input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, queue_position: 2 },
  })
  @ApiNotFoundResponse({ type: H2cErrorDto, description: 'not_found' })
  h2cGetTask(@CurrentPrincipal() principal: Principal, @Query() query: TaskQueryDto): Promise<H2cTaskDto> {
    return this.tasks.get(principal, query.task_id);
  }
}
