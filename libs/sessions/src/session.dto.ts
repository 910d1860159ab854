import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import {
  PERMISSION_MODES,
  RUN_STATUSES,
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
