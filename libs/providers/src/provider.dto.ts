import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import type { ProviderStatus } from '@h/contracts';

// anthropic: the key Claude Code sessions use, added by the model gateway on the host (ANTHROPIC_BASE_URL).
export const SUPPORTED_PROVIDERS = ['deepseek', 'anthropic'] as const;

export class SetProviderKeyDto {
  @ApiProperty({ minLength: 8, maxLength: 512, description: 'The provider API key (e.g. sk-...). Stored encrypted; never returned.', writeOnly: true, example: 'sk-0123456789abcdef' })
  @IsString()
  @MinLength(8, { message: 'apiKey looks too short to be a provider key' })
  @MaxLength(512)
  @Matches(/^\S+$/, { message: 'apiKey must not contain spaces' })
  apiKey: string;
}

export class ProviderStatusDto implements ProviderStatus<Date> {
  @ApiProperty({ enum: SUPPORTED_PROVIDERS }) provider: string;
  @ApiProperty({ description: 'Whether a key is stored; the key itself is never returned', example: true }) configured: boolean;
  @ApiProperty({ nullable: true, type: Date }) updatedAt: Date | null;
}
