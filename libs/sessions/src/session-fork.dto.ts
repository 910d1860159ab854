import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import type { ForkSessionRequest } from '@h/contracts';
import { SessionDto } from './session.dto';

export class ForkSessionDto implements ForkSessionRequest {
  @ApiProperty({ example: 12, minimum: 1, maximum: 2147483647, description: 'The seq of a message a person wrote (message.user): the fork keeps the log before it' })
  // No conversion: a JSON body carries a number, and `true` or "12" are the caller's mistakes.
  @IsInt({ message: 'atSeq must be an event seq' })
  @Min(1)
  @Max(2147483647)
  atSeq: number;

  @ApiPropertyOptional({ example: true, default: true, description: "Restore the workspace's files to the checkpoint of that message's run (they change for everyone in the workspace)" })
  @IsOptional()
  @IsBoolean()
  restoreFiles?: boolean;
}

export class ForkSessionResultDto {
  @ApiProperty({ type: SessionDto }) session: SessionDto;
  @ApiProperty({ nullable: true, type: String, example: '3f1c9a0e6b2d4c8e9a7b5d3f1e0c2a4b6d8f0e1c', description: 'The checkpoint the files were restored to; null when none was needed or asked for' })
  restoredCheckpoint: string | null;
  @ApiProperty({ example: 'Now rename the helper.', description: 'The message the fork was made at, to edit and send again' })
  draft: string;
}
