import { ApiProperty } from '@nestjs/swagger';
import {
  AGENT_CHANGE_STATUSES,
  type AgentChange,
  type AgentChangeRestoreResult,
  type AgentChangeSide,
  type AgentChangeStatus,
  type ListResponse,
} from '@h/contracts';
import { AgentChangeSummaryDto } from '@h/runs';

export class AgentChangeSideDto implements AgentChangeSide {
  @ApiProperty({ example: true, description: 'Whether a file (or directory) was at the path on this side' }) exists: boolean;
  @ApiProperty({ nullable: true, type: String, example: 'export const answer = 42;\n', description: 'The text; null when missing, binary, a directory or over FILE_CHANGE_MAX_BYTES' })
  content: string | null;
  @ApiProperty({ example: 26 }) bytes: number;
  @ApiProperty({ example: false }) binary: boolean;
  @ApiProperty({ example: false }) directory: boolean;
  @ApiProperty({ example: false, description: 'Over FILE_CHANGE_MAX_BYTES: recorded without content' }) tooLarge: boolean;
}

// The summary fields (id, run, kind, paths, counts) are the bot API's AgentChangeSummaryDto.
export class AgentChangeDto extends AgentChangeSummaryDto implements AgentChange<Date> {
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ enum: AGENT_CHANGE_STATUSES, example: 'applied' }) status: AgentChangeStatus;
  @ApiProperty({ type: AgentChangeSideDto }) before: AgentChangeSideDto;
  @ApiProperty({ type: AgentChangeSideDto }) after: AgentChangeSideDto;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) decidedById: string | null;
  @ApiProperty({ nullable: true, type: Date }) decidedAt: Date | null;
  @ApiProperty() createdAt: Date;
}

export class AgentChangeListDto implements ListResponse<AgentChangeDto> {
  @ApiProperty({ type: [AgentChangeDto], description: 'Oldest first' }) items: AgentChangeDto[];
}

export class AgentChangeRestoreDto implements AgentChangeRestoreResult<Date> {
  @ApiProperty({ type: [AgentChangeDto], description: 'The changes whose earlier content is back, newest first (the order they were undone)' })
  items: AgentChangeDto[];
}
