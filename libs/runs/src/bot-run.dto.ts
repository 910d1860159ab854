// Wire shapes of the bot API (bot-run.controller.ts, and `GET /runs/:id?wait=`): the classes
// document and validate, the shapes are the contracts' (libs/contracts bot-api.ts).
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import {
  AGENT_CHANGE_KINDS,
  CLIENT_RUN_ID_PATTERN,
  MODEL_PRESET_NAME_MAX_LENGTH,
  PERMISSION_MODES,
  RUN_LIST_FILTERS,
  RUN_RESULT_DIFF_MAX_CHARS,
  RUN_WAIT_MAX_SECONDS,
  WORKSPACE_RUNS_MAX_LIMIT,
  type AgentChangeKind,
  type AgentChangeSummary,
  type CreateRunRequest,
  type PermissionMode,
  type RunListFilter,
  type RunResult,
  type WorkspaceRun,
  type WorkspaceRunList,
} from '@h/contracts';
import { MAX_MESSAGE_CHARS, PermissionDto, RunDto } from './run.dto';

const EXAMPLE_DIFF =
  'diff --git a/src/math.js b/src/math.js\n--- a/src/math.js\n+++ b/src/math.js\n@@ -1,4 +1,4 @@\n // Small arithmetic helpers.\n function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n';

export class CreateRunDto implements CreateRunRequest {
  @ApiProperty({ maxLength: MAX_MESSAGE_CHARS, example: 'The failing test in test/math.test.js needs fixing.', description: 'The first message of the new session' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_MESSAGE_CHARS)
  @Matches(/\S/, { message: 'prompt must not be blank' })
  prompt: string;

  @ApiPropertyOptional({ enum: PERMISSION_MODES, default: 'approve', example: 'bypass', description: 'approve: the run stops at each command, write or delete until someone answers (POST /api/v1/permissions/:id); bypass (or skip): never asks' })
  @IsOptional()
  @IsIn(PERMISSION_MODES)
  mode?: PermissionMode;

  @ApiPropertyOptional({ maxLength: 80, pattern: '^[\\w.:-]{1,80}$', example: 'deepseek-v4-flash', description: 'Model id from the catalog; default DEFAULT_MODEL. Not with `preset`' })
  @IsOptional()
  @IsString()
  @Matches(/^[\w.:-]{1,80}$/, { message: 'model must be a model id such as deepseek-v4-flash' })
  model?: string;

  @ApiPropertyOptional({ maxLength: MODEL_PRESET_NAME_MAX_LENGTH, example: 'fast', description: "A model preset of the workspace's team, by id or name: its model and thinking. Not with `model`" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MODEL_PRESET_NAME_MAX_LENGTH)
  preset?: string;

  @ApiPropertyOptional({ default: false, example: false, description: 'Think before answering (a preset brings its own)' })
  @IsOptional()
  @IsBoolean()
  thinking?: boolean;

  @ApiPropertyOptional({ default: false, example: false, description: "Step by step: the agent writes a plan (write_todos only) that the server validates and locks, then one code-writer sub-agent per step, and the result's summary holds every step's result. Also the new session's stepMode" })
  @IsOptional()
  @IsBoolean()
  stepMode?: boolean;

  @ApiPropertyOptional({ maxLength: 120, example: 'CI: fix the failing test', description: 'Default: the first line of the prompt' })
  @IsOptional()
  @IsString()
  @MaxLength(120)
  title?: string;

  @ApiPropertyOptional({ maxLength: 100, pattern: CLIENT_RUN_ID_PATTERN, example: 'ci-4711-attempt-1', description: 'Makes the call idempotent: the same id in the same workspace answers the same session and run (a CI retry does not start a second agent)' })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(CLIENT_RUN_ID_PATTERN), { message: 'clientRunId must be 1-100 letters, digits, _ . : or -' })
  clientRunId?: string;
}

export class RunWaitQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: RUN_WAIT_MAX_SECONDS,
    default: 0,
    example: 30,
    description: `Hold the answer up to this many seconds until the run ends (completed, failed, cancelled) or waits on a permission; 0 answers at once. At most ${RUN_WAIT_MAX_SECONDS}`,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(RUN_WAIT_MAX_SECONDS)
  wait?: number;
}

export class WorkspaceRunsQueryDto {
  @ApiPropertyOptional({ enum: RUN_LIST_FILTERS, example: 'active', description: 'A run status, or active (queued, running, waiting_permission) / finished (completed, failed, cancelled)' })
  @IsOptional()
  @IsIn(RUN_LIST_FILTERS)
  status?: RunListFilter;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: WORKSPACE_RUNS_MAX_LIMIT, default: 20, example: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(WORKSPACE_RUNS_MAX_LIMIT)
  limit?: number;
}

export class AgentChangeSummaryDto implements AgentChangeSummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) runId: string;
  @ApiProperty({ example: 'call_1' }) toolCallId: string;
  @ApiProperty({ enum: AGENT_CHANGE_KINDS, example: 'modify' }) kind: AgentChangeKind;
  @ApiProperty({ example: 'src/answer.ts', description: 'Relative to the workspace root (the new path of a rename)' }) path: string;
  @ApiProperty({ nullable: true, type: String, example: null, description: 'The old path of a rename' }) fromPath: string | null;
  @ApiProperty({ example: 1 }) added: number;
  @ApiProperty({ example: 1 }) removed: number;
  @ApiProperty({ example: false }) binary: boolean;
  @ApiProperty({ example: false }) tooLarge: boolean;
}

export class WorkspaceRunDto extends RunDto implements WorkspaceRun<Date> {
  @ApiProperty({ format: 'uuid' }) workspaceId: string;
  @ApiProperty({ example: 'The failing test in test/math.test.js needs fixing.', description: "The session's title" }) title: string;
  @ApiProperty({ nullable: true, type: String, example: '### Changes Made\n- `src/math.js`: `add` now adds.', description: 'What write_summary left; null until the run wrote one' })
  summary: string | null;
}

export class WorkspaceRunListDto implements WorkspaceRunList<Date> {
  @ApiProperty({ type: [WorkspaceRunDto], description: 'Newest first' }) items: WorkspaceRunDto[];
}

export class RunResultDto extends WorkspaceRunDto implements RunResult<Date> {
  @ApiProperty({ nullable: true, type: String, example: null, description: "The agent's last plain answer, when it ended on text" }) reply: string | null;
  @ApiProperty({ type: [AgentChangeSummaryDto], description: 'The files the run changed and still has changed (rejected or reverted ones are left out), oldest first' })
  changes: AgentChangeSummaryDto[];
  @ApiProperty({ example: EXAMPLE_DIFF, description: `Unified diff (git format) of those changes, one section per file; empty when none. Cut at ${RUN_RESULT_DIFF_MAX_CHARS} characters (diffTruncated)` })
  diff: string;
  @ApiProperty({ example: false, description: 'diff was cut; GET /api/v1/runs/:id/diff has all of it' }) diffTruncated: boolean;
  @ApiProperty({ nullable: true, type: PermissionDto, description: 'The request the run waits on (answer it at POST /api/v1/permissions/:id); null otherwise' })
  pendingPermission: PermissionDto | null;
}
