// Wire shapes of runs, permission requests and usage (routes: run.controller.ts, permission.controller.ts,
// usage.controller.ts). The classes document and validate; the shapes are the contracts' (libs/contracts session-api.ts).
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import {
  PERMISSION_BEHAVIORS,
  PERMISSION_STATUSES,
  RUN_STATUSES,
  type ListResponse,
  type Permission,
  type PermissionBehavior,
  type PermissionDecision,
  type PermissionStatus,
  type Run,
  type RunError,
  type RunStatus,
  type TeamUsage,
  type Usage,
} from '@h/contracts';

/** Longest user message accepted; longer text belongs in a file the agent reads. */
export const MAX_MESSAGE_CHARS = 100_000;

export class UsageDto implements Usage {
  @ApiProperty() requests: number;
  @ApiProperty() promptTokens: number;
  @ApiProperty() completionTokens: number;
  @ApiProperty() cacheHitTokens: number;
  @ApiProperty() cacheMissTokens: number;
  @ApiProperty({ description: 'Of the completion tokens, those spent thinking (models that report them)' }) reasoningTokens: number;
  @ApiProperty({ description: 'US dollars' }) costUsd: number;
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
