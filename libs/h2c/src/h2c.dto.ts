// Wire shapes of the h2c task API (h2c.controller.ts). The shapes are the contracts'
// (libs/contracts h2c.ts); these classes validate the input and document everything in OpenAPI.
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import {
  H2C_BEHAVIORS,
  H2C_ERROR_CODES,
  H2C_PERMISSION_MODES,
  H2C_TASK_STATUSES,
  type H2cCreatedTask,
  type H2cErrorBody,
  type H2cErrorCode,
  type H2cPermissionMode,
  type H2cTask,
  type H2cTaskOutput,
  type H2cTaskStatus,
  type H2cUsage,
} from '@h/contracts';
import { MAX_MESSAGE_CHARS } from '@h/runs';

/** h2c's task ids: `task_` and 32 hex digits here; any word characters are looked up (unknown → 404). */
export const TASK_ID_PATTERN = '^task_[A-Za-z0-9_-]{1,100}$';
const TASK_ID_RE = new RegExp(TASK_ID_PATTERN);
const TASK_ID_EXAMPLE = 'task_3f2c9a1b7d4e4f0a9c8b6e5d4c3b2a19';

export class CreateTaskDto {
  @ApiProperty({ maxLength: MAX_MESSAGE_CHARS, example: 'Fix the failing test in tests/math.test.js' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_MESSAGE_CHARS)
  @Matches(/\S/, { message: 'prompt must not be blank' })
  prompt: string;

  @ApiPropertyOptional({ enum: H2C_PERMISSION_MODES, default: 'approve', description: '`approve`: commands, writes and deletes wait for a decision (POST /v1/task/permission or the IDE); `bypass`: every call is allowed' })
  @IsOptional()
  @IsIn(H2C_PERMISSION_MODES)
  permission_mode?: H2cPermissionMode;

  @ApiPropertyOptional({ description: 'true: nothing ever asks (H\'s `skip` mode), whatever permission_mode says', example: false })
  @IsOptional()
  @IsBoolean()
  skip_permissions?: boolean;

  @ApiPropertyOptional({
    maxLength: 4096,
    example: 'my-project',
    description:
      "Which of the team's workspaces the task runs in, for a token not bound to one: its id, its name, or a path whose last segment is its name (`/home/me/my-project`). A workspace-bound token ignores it.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  cwd?: string;
}

export class TaskIdDto {
  @ApiProperty({ maxLength: 105, pattern: TASK_ID_PATTERN, example: TASK_ID_EXAMPLE })
  @IsString()
  @Matches(TASK_ID_RE, { message: 'task_id must look like task_…' })
  task_id: string;
}

export class TaskQueryDto {
  @ApiPropertyOptional({ maxLength: 105, pattern: TASK_ID_PATTERN, example: TASK_ID_EXAMPLE })
  @IsOptional()
  @IsString()
  @Matches(TASK_ID_RE, { message: 'task_id must look like task_…' })
  task_id?: string;
}

export class StreamQueryDto extends TaskQueryDto {
  @ApiPropertyOptional({ maxLength: 105, pattern: TASK_ID_PATTERN, example: TASK_ID_EXAMPLE, description: 'Same as task_id (h2c accepts both)' })
  @IsOptional()
  @IsString()
  @Matches(TASK_ID_RE, { message: 'id must look like task_…' })
  id?: string;
}

export class TaskPermissionDto extends TaskIdDto {
  @ApiProperty({ enum: H2C_BEHAVIORS, example: 'allow' })
  @IsIn(H2C_BEHAVIORS)
  behavior: 'allow' | 'deny';

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { command: 'npm test' }, description: 'Replacement tool input (allow only)' })
  @IsOptional()
  @IsObject({ message: 'updatedInput must be a JSON object' })
  updatedInput?: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 2000, example: 'Run only the unit tests', description: 'Told to the agent with the decision' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  message?: string;

  @ApiPropertyOptional({ maxLength: 64, format: 'uuid', description: 'Which request (the `request_id` of a permission_request frame); default the oldest one waiting' })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'request_id must be a permission request id' })
  request_id?: string;
}

export class H2cHealthDto {
  @ApiProperty({ example: 'ok' }) status: 'ok';
}

export class H2cCreatedTaskDto implements H2cCreatedTask {
  @ApiProperty({ example: TASK_ID_EXAMPLE }) task_id: string;
  @ApiProperty({ enum: ['created'], example: 'created' }) status: 'created';
}

export class H2cUsageDto implements H2cUsage {
  @ApiProperty({ example: 0.01234, description: 'US dollars' }) total_cost_usd: number;
  @ApiProperty({ example: 150, description: 'Prompt tokens not read from the provider cache' }) input_tokens: number;
  @ApiProperty({ example: 300 }) output_tokens: number;
  @ApiProperty({ example: 0, description: 'Always 0: the providers H speaks to cache without a separate write' }) cache_creation_input_tokens: number;
  @ApiProperty({ example: 20, description: 'Prompt tokens read from the provider cache' }) cache_read_input_tokens: number;
}

export class H2cTaskDto implements H2cTask {
  @ApiProperty({ example: TASK_ID_EXAMPLE }) id: string;
  @ApiProperty({ enum: H2C_TASK_STATUSES, example: 'done' }) status: H2cTaskStatus;
  @ApiProperty({ nullable: true, type: String, example: 'Fixed the off-by-one in sum(); the tests pass.' }) result: string | null;
  @ApiProperty({ nullable: true, type: Number, example: 0, description: '0 done, 1 failed, 130 cancelled; null while queued or running' }) exitCode: number | null;
  @ApiProperty({ type: H2cUsageDto }) usage: H2cUsageDto;
  @ApiProperty({ nullable: true, type: Number, example: null, description: 'Place in line while queued (1 = next)' }) queue_position: number | null;
}

export class H2cTaskOutputDto implements H2cTaskOutput {
  @ApiProperty({ enum: ['success', 'pending'], example: 'success', description: '`success` once the task ended (done, failed or cancelled)' }) retrieval_status: 'success' | 'pending';
  @ApiProperty({ type: H2cTaskDto }) task: H2cTaskDto;
}

export class H2cCancelDto {
  @ApiProperty({ example: TASK_ID_EXAMPLE }) task_id: string;
  @ApiProperty({ enum: ['cancelled', 'cancelling'], description: '`cancelling`: the worker stops the running task within a second' }) status: 'cancelled' | 'cancelling';
}

export class H2cPermissionAnswerDto {
  @ApiProperty({ example: TASK_ID_EXAMPLE }) task_id: string;
  @ApiProperty({ format: 'uuid' }) request_id: string;
  @ApiProperty({ enum: H2C_BEHAVIORS }) behavior: 'allow' | 'deny';
}

export class H2cErrorDto implements H2cErrorBody {
  @ApiProperty({ enum: Object.keys(H2C_ERROR_CODES), example: 'not_found' }) error: H2cErrorCode;
  @ApiProperty({ example: 'No task with that id.' }) message: string;
}
