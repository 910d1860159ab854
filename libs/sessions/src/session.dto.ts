import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import {
  MODEL_ID_MAX_LENGTH,
  MODEL_ID_PATTERN,
  PERMISSION_MODES,
  RUN_STATUSES,
  SESSION_ENGINES,
  type SessionEngine,
  TODO_STATUSES,
  type EventPage,
  type ListResponse,
  type PermissionMode,
  type RunStatus,
  type Session,
  type SessionState,
  type Todo,
  type TodoStatus,
  type EventEnvelope,
} from '@h/contracts';
import { UsageDto } from '@h/runs';

// The classes document and validate; the shapes are the contracts' (libs/contracts session-api.ts).

export { PERMISSION_MODES };
export const MODELS = ['deepseek-v4-flash', 'deepseek-v4-pro', 'deepseek-chat', 'deepseek-reasoner'] as const;

/** What a session's owner may set at create and change later. */
export class SessionSettingsDto {
  @ApiPropertyOptional({ maxLength: 120, description: 'Defaults to the first line of the first message', example: 'Fix the failing invoice test' })
  @IsOptional()
  @IsString()
  @MaxLength(120)
  title?: string;

  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: "One of the team's own providers (GET /api/v1/teams/:teamId/providers); null: DeepSeek (the default)" })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsUUID()
  providerId?: string | null;

  @ApiPropertyOptional({
    maxLength: MODEL_ID_MAX_LENGTH,
    pattern: MODEL_ID_PATTERN,
    description:
      "Model id: for engine h one from the catalog (built in, or MODEL_CATALOG), or from the provider's list when providerId is set (default DEFAULT_MODEL, or the provider's first model); for engine claude-code the Anthropic model Claude Code asks for, default CLAUDE_CODE_MODEL",
    example: 'deepseek-v4-flash',
  })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(MODEL_ID_PATTERN), { message: 'model must be a model id such as deepseek-v4-flash' })
  model?: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  thinking?: boolean;

  @ApiPropertyOptional({ enum: PERMISSION_MODES, default: 'approve', description: 'approve: ask before commands, writes and deletes (reads run freely); bypass and skip: never ask, every call runs at once (skip is the h2c name for the same behaviour)' })
  @IsOptional()
  @IsIn(PERMISSION_MODES)
  permissionMode?: PermissionMode;

  @ApiPropertyOptional({
    default: false,
    example: true,
    description: 'Step-by-step mode for the runs of this session (a message may choose otherwise): the agent first writes a plan with only write_todos, the server validates and locks it, then each step runs as one isolated code-writer sub-agent with the earlier steps\' results, and the run ends with all step results. engine h only.',
  })
  @IsOptional()
  @IsBoolean()
  stepMode?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: 10_000, description: 'Model requests one run may make, over all its segments; default AGENT_MAX_STEPS, at most AGENT_MAX_STEPS_LIMIT', example: 50 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  maxSteps?: number;
}

export class CreateSessionDto extends SessionSettingsDto {
  @ApiPropertyOptional({ enum: SESSION_ENGINES, default: 'h', example: 'h', description: "What runs the session's turns, fixed at create: h (H's agent) or claude-code (the Claude Code CLI in the workspace's sandbox; needs the team's Anthropic key)" })
  @IsOptional()
  @IsIn(SESSION_ENGINES)
  engine?: SessionEngine;
}

/** The engine is not among them: a conversation cannot move between engines. */
export class UpdateSessionDto extends SessionSettingsDto {}

export class LatestRunDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: RUN_STATUSES }) status: RunStatus;
}

export class SessionDto implements Session<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspaceId: string;
  @ApiProperty({ format: 'uuid' }) teamId: string;
  @ApiProperty({ example: 'Fix the failing invoice test' }) title: string;
  @ApiProperty({ enum: SESSION_ENGINES, example: 'h' }) engine: SessionEngine;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The team provider of the model; null: DeepSeek', example: null }) providerId: string | null;
  @ApiProperty({ example: 'deepseek-v4-flash' }) model: string;
  @ApiProperty({ example: false }) thinking: boolean;
  @ApiProperty({ enum: PERMISSION_MODES }) permissionMode: PermissionMode;
  @ApiProperty({ example: false, description: 'Runs go step by step unless a message says otherwise' }) stepMode: boolean;
  @ApiProperty({ nullable: true, type: Number, description: 'Step limit of this session; null: the instance default', example: null }) maxSteps: number | null;
  @ApiProperty({ description: 'Seq of the newest event', example: 37 }) lastSeq: number;
  @ApiProperty({ type: UsageDto }) usage: UsageDto;
  @ApiProperty({ nullable: true, type: LatestRunDto, description: 'The newest run, for status badges' }) latestRun: LatestRunDto | null;
  @ApiProperty({ format: 'uuid' }) createdById: string;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class SessionListDto implements ListResponse<SessionDto> {
  @ApiProperty({ type: [SessionDto] }) items: SessionDto[];
}

export class TodoDto implements Todo {
  @ApiProperty({ example: 'Run the invoice tests' }) content: string;
  @ApiProperty({ enum: TODO_STATUSES }) status: TodoStatus;
}

export class SessionStateDto implements SessionState {
  @ApiProperty({ type: [TodoDto] }) todos: TodoDto[];
  @ApiProperty({ nullable: true, type: String, example: 'Fixed the rounding in invoice totals; all 24 tests pass.' }) summary: string | null;
  @ApiProperty({ type: UsageDto }) usage: UsageDto;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The run in progress or waiting, if any' }) activeRunId: string | null;
  @ApiProperty({ example: 37 }) lastSeq: number;
}

export class EventsQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, default: 0, description: 'Return events with seq greater than this' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  after?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: 200 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

export class StreamQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Resume after this seq (Last-Event-ID wins when both are sent)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  after?: number;
}

export class EventDto implements EventEnvelope {
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ example: 12 }) seq: number;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) runId: string | null;
  @ApiProperty({ format: 'date-time' }) ts: string;
  @ApiProperty({ example: 'tool.end' }) type: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Depends on type (libs/contracts agent-events.ts)', example: { toolCallId: 'call_0_7f3a', name: 'run_command', result: '24 passed', isError: false, durationMs: 1840 } }) data: unknown;
}

export class EventPageDto implements EventPage {
  @ApiProperty({ type: [EventDto] }) items: EventDto[];
  @ApiProperty({ description: 'Pass as ?after= to read on', example: 12 }) nextAfter: number;
  @ApiProperty({ example: false }) hasMore: boolean;
}
