import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import {
  PERMISSION_BEHAVIORS,
  PERMISSION_MODES,
  PERMISSION_STATUSES,
  RUN_STATUSES,
  TODO_STATUSES,
  type EventPage,
  type ListResponse,
  type Permission,
  type PermissionBehavior,
  type PermissionDecision,
  type PermissionMode,
  type PermissionStatus,
  type Run,
  type RunError,
  type RunStatus,
  type Session,
  type SessionState,
  type TeamUsage,
  type Todo,
  type TodoStatus,
  type Usage,
  type EventEnvelope,
} from '@h/contracts';

// The classes document and validate; the shapes are the contracts' (libs/contracts session-api.ts).
export { PERMISSION_MODES };
export const MODELS = ['deepseek-v4-flash', 'deepseek-v4-pro', 'deepseek-chat', 'deepseek-reasoner'] as const;
/** Longest user message accepted; longer text belongs in a file the agent reads. */
export const MAX_MESSAGE_CHARS = 100_000;

export class CreateSessionDto {
  @ApiPropertyOptional({ maxLength: 120, description: 'Defaults to the first line of the first message' })
  @IsOptional()
  @IsString()
  @MaxLength(120)
  title?: string;

  @ApiPropertyOptional({ maxLength: 80, pattern: '^[\\w.:-]{1,80}$', description: 'Model id from the catalog (built in, or MODEL_CATALOG); default DEFAULT_MODEL', example: 'deepseek-v4-flash' })
  @IsOptional()
  @IsString()
  @Matches(/^[\w.:-]{1,80}$/, { message: 'model must be a model id such as deepseek-v4-flash' })
  model?: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  thinking?: boolean;

  @ApiPropertyOptional({ enum: PERMISSION_MODES, default: 'approve', description: 'approve: ask before commands, writes and deletes (reads run freely); bypass and skip: never ask, every call runs at once (skip is the h2c name for the same behaviour)' })
  @IsOptional()
  @IsIn(PERMISSION_MODES)
  permissionMode?: PermissionMode;

  @ApiPropertyOptional({ minimum: 1, maximum: 10_000, description: 'Model requests one run may make, over all its segments; default AGENT_MAX_STEPS, at most AGENT_MAX_STEPS_LIMIT' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  maxSteps?: number;
}

export class UpdateSessionDto extends CreateSessionDto {}

export class UsageDto implements Usage {
  @ApiProperty() requests: number;
  @ApiProperty() promptTokens: number;
  @ApiProperty() completionTokens: number;
  @ApiProperty() cacheHitTokens: number;
  @ApiProperty() cacheMissTokens: number;
  @ApiProperty({ description: 'US dollars' }) costUsd: number;
}

export class LatestRunDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: RUN_STATUSES }) status: RunStatus;
}

export class SessionDto implements Session<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspaceId: string;
  @ApiProperty({ format: 'uuid' }) teamId: string;
  @ApiProperty() title: string;
  @ApiProperty() model: string;
  @ApiProperty() thinking: boolean;
  @ApiProperty({ enum: PERMISSION_MODES }) permissionMode: PermissionMode;
  @ApiProperty({ nullable: true, type: Number, description: 'Step limit of this session; null: the instance default' }) maxSteps: number | null;
  @ApiProperty({ description: 'Seq of the newest event' }) lastSeq: number;
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
  @ApiProperty() content: string;
  @ApiProperty({ enum: TODO_STATUSES }) status: TodoStatus;
}

export class SessionStateDto implements SessionState {
  @ApiProperty({ type: [TodoDto] }) todos: TodoDto[];
  @ApiProperty({ nullable: true, type: String }) summary: string | null;
  @ApiProperty({ type: UsageDto }) usage: UsageDto;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The run in progress or waiting, if any' }) activeRunId: string | null;
  @ApiProperty() lastSeq: number;
}

export class PostMessageDto {
  @ApiProperty({ maxLength: MAX_MESSAGE_CHARS })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_MESSAGE_CHARS)
  @Matches(/\S/, { message: 'content must not be blank' })
  content: string;

  @ApiPropertyOptional({ maxLength: 128, description: 'Makes the post idempotent: the same id returns the same run' })
  @IsOptional()
  @IsString()
  @Matches(/^[\w.:-]{1,128}$/, { message: 'clientMessageId must be 1-128 letters, digits, _ . : or -' })
  clientMessageId?: string;
}

export class RunErrorDto implements RunError {
  @ApiProperty() code: string;
  @ApiProperty() message: string;
}

export class RunDto implements Run<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ enum: RUN_STATUSES }) status: RunStatus;
  @ApiProperty({ nullable: true, type: Number, description: 'Place in the team queue while queued (1 = next)' }) position: number | null;
  @ApiProperty({ nullable: true, type: String }) clientMessageId: string | null;
  @ApiProperty({ nullable: true, type: RunErrorDto }) error: RunErrorDto | null;
  @ApiProperty({ type: UsageDto }) usage: UsageDto;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() queuedAt: Date;
  @ApiProperty({ nullable: true, type: Date }) startedAt: Date | null;
  @ApiProperty({ nullable: true, type: Date }) finishedAt: Date | null;
  @ApiProperty({ nullable: true, type: Date }) cancelRequestedAt: Date | null;
}

export class RunListDto implements ListResponse<RunDto> {
  @ApiProperty({ type: [RunDto] }) items: RunDto[];
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
  @ApiProperty() seq: number;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) runId: string | null;
  @ApiProperty() ts: string;
  @ApiProperty({ example: 'tool.end' }) type: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) data: unknown;
}

export class EventPageDto implements EventPage {
  @ApiProperty({ type: [EventDto] }) items: EventDto[];
  @ApiProperty({ description: 'Pass as ?after= to read on' }) nextAfter: number;
  @ApiProperty() hasMore: boolean;
}

export class PermissionDecisionDto implements PermissionDecision {
  @ApiProperty({ enum: PERMISSION_BEHAVIORS })
  @IsIn(PERMISSION_BEHAVIORS)
  behavior: PermissionBehavior;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Replacement tool input (allow only)' })
  @IsOptional()
  @IsObject({ message: 'updatedInput must be a JSON object' })
  updatedInput?: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 2000, description: 'Told to the agent with the decision' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  message?: string;
}

export class PermissionDto implements Permission<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ format: 'uuid' }) runId: string;
  @ApiProperty() toolCallId: string;
  @ApiProperty() toolName: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) input: unknown;
  @ApiProperty({ enum: PERMISSION_STATUSES }) status: PermissionStatus;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) decidedById: string | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty({ nullable: true, type: Date }) decidedAt: Date | null;
}

export class PermissionListDto implements ListResponse<PermissionDto> {
  @ApiProperty({ type: [PermissionDto] }) items: PermissionDto[];
}

export class UsageQueryDto {
  @ApiPropertyOptional({ example: '2026-11', pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'Calendar month (UTC); default the current one' })
  @IsOptional()
  @Matches(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'month must look like 2026-11' })
  month?: string;
}

export class PermissionsQueryDto {
  @ApiPropertyOptional({ enum: ['pending'], description: 'Only the requests still waiting for a decision' })
  @IsOptional()
  @IsIn(['pending'])
  status?: 'pending';
}

export class TeamUsageDto extends UsageDto implements TeamUsage {
  @ApiProperty({ example: '2026-11' }) month: string;
  @ApiProperty() runs: number;
}
