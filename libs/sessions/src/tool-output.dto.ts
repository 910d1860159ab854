import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Largest byte range one request returns; read on from `nextOffset`. */
export const OUTPUT_PAGE_MAX_BYTES = 1024 * 1024;
export const OUTPUT_PAGE_DEFAULT_BYTES = 256 * 1024;

export class ToolOutputQueryDto {
  @ApiPropertyOptional({ minimum: 0, default: 0, description: 'Byte offset into the full output (moved forward to a character boundary)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(2 ** 31 - 1)
  offset?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: OUTPUT_PAGE_MAX_BYTES, default: OUTPUT_PAGE_DEFAULT_BYTES, description: 'Most bytes to return' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(OUTPUT_PAGE_MAX_BYTES)
  limit?: number;
}

export class ToolOutputDto {
  @ApiProperty({ description: 'N of `[cmd #N]`, the `outputId` of the tool.end event', example: 3 }) outputId: number;
  @ApiProperty({ description: 'What the output is, e.g. the command line', example: 'npm test' }) label: string;
  @ApiProperty({ description: 'UTF-8 bytes of the whole stored output', example: 2097152 }) bytes: number;
  @ApiProperty({ description: 'The output was cut at TOOL_OUTPUT_MAX_BYTES (or the command capture cap) before it was stored', example: false })
  truncated: boolean;
  @ApiProperty({ description: 'Byte offset of `content`', example: 0 }) offset: number;
  @ApiProperty({ description: 'This byte range of the output, as text (never a split character)', example: 'PASS src/a.test.ts\nPASS src/b.test.ts\n' })
  content: string;
  @ApiProperty({ nullable: true, type: Number, description: 'Pass as ?offset= to read on; null at the end', example: 262144 })
  nextOffset: number | null;
}
