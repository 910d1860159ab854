// Wire shapes of runs, permission requests and usage (routes: run.controller.ts, permission.controller.ts,
// usage.controller.ts). The classes document and validate; the shapes are the contracts' (libs/contracts session-api.ts).
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
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
  type Usage,
} from '@h/contracts';

/** Longest user message accepted; longer text belongs in a file the agent reads. */
export const MAX_MESSAGE_CHARS = 100_000;

export class UsageDto implements Usage {
  @ApiProperty({ example: 6 }) requests: number;
  @ApiProperty({ example: 48210 }) promptTokens: number;
  @ApiProperty({ example: 1830 }) completionTokens: number;
  @ApiProperty({ description: 'Of the prompt tokens, those the provider served from its prefix cache', example: 41984 }) cacheHitTokens: number;
  @ApiProperty({ example: 6226 }) cacheMissTokens: number;
  @ApiProperty({ description: 'Of the completion tokens, those spent thinking (models that report them)', example: 412 }) reasoningTokens: number;
  @ApiProperty({ description: 'US dollars', example: 0.0042 }) costUsd: number;
}

export class PostMessageDto {
  @ApiProperty({ maxLength: MAX_MESSAGE_CHARS, example: 'The test in tests/test_invoice.py fails; find out why and fix it.' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_MESSAGE_CHARS)
  @Matches(/\S/, { message: 'content must not be blank' })
  content: string;

  @ApiPropertyOptional({ maxLength: 128, description: 'Makes the post idempotent: the same id returns the same run', example: 'ci-4711-fix-tests' })
  @IsOptional()
  @IsString()
  @Matches(/^[\w.:-]{1,128}$/, { message: 'clientMessageId must be 1-128 letters, digits, _ . : or -' })
  clientMessageId?: string;

  @ApiPropertyOptional({
    example: true,
    description: "Run this message step by step (plan with write_todos only, locked, one code-writer sub-agent per step, a wrap-up of all step results); absent: the session's stepMode",
  })
  @IsOptional()
  @IsBoolean()
  stepMode?: boolean;
}

export class RunErrorDto implements RunError {
  @ApiProperty({ example: 'PROVIDER_ERROR' }) code: string;
  @ApiProperty({ example: 'The model provider answered 503; try again later.' }) message: string;
}

export class RunDto implements Run<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ enum: RUN_STATUSES }) status: RunStatus;
  @ApiProperty({ nullable: true, type: Number, description: 'Place in the team queue while queued (1 = next)', example: 1 }) position: number | null;
  @ApiProperty({ nullable: true, type: String, example: 'ci-4711-fix-tests' }) clientMessageId: string | null;
  @ApiProperty({ nullable: true, type: RunErrorDto }) error: RunErrorDto | null;
  @ApiProperty({ type: UsageDto }) usage: UsageDto;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() queuedAt: Date;
  @ApiProperty({ nullable: true, type: Date }) startedAt: Date | null;
  @ApiProperty({ nullable: true, type: Date }) finishedAt: Date | null;
  @ApiProperty({ nullable: true, type: Date }) cancelRequestedAt: Date | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'A sub-agent run: the run that delegated it (same session)' }) parentRunId: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'A sub-agent run: the parent tool call it answers', example: 'call_1' }) parentToolCallId: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'A sub-agent run: its profile', example: 'code-search' }) profile: string | null;
}

export class RunListDto implements ListResponse<RunDto> {
  @ApiProperty({ type: [RunDto] }) items: RunDto[];
}

export class PermissionDecisionDto implements PermissionDecision {
  @ApiProperty({ enum: PERMISSION_BEHAVIORS })
  @IsIn(PERMISSION_BEHAVIORS)
  behavior: PermissionBehavior;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Replacement tool input (allow only)', example: { command: 'npm test -- --runInBand' } })
  @IsOptional()
  @IsObject({ message: 'updatedInput must be a JSON object' })
  updatedInput?: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 2000, description: 'Told to the agent with the decision', example: 'Run only the unit tests.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  message?: string;
}

export class PermissionDto implements Permission<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ format: 'uuid' }) runId: string;
  @ApiProperty({ example: 'call_0_7f3a' }) toolCallId: string;
  @ApiProperty({ example: 'run_command' }) toolName: string;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { command: 'npm test' } }) input: unknown;
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

