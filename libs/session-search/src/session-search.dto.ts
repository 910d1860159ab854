import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { SESSION_SEARCH_LIMITS, type SessionSearchHit, type SessionSearchResponse } from '@h/contracts';

export class SessionSearchQueryDto {
  @ApiProperty({
    minLength: 1,
    maxLength: SESSION_SEARCH_LIMITS.queryMaxChars,
    example: 'invoice rounding',
    description: `Words to find (each a prefix, all required; at most ${SESSION_SEARCH_LIMITS.queryMaxWords} count). Operators are not syntax: they only separate words.`,
  })
  @IsString()
  @MinLength(1)
  @MaxLength(SESSION_SEARCH_LIMITS.queryMaxChars)
  q: string;
}

export class SessionSearchHitDto implements SessionSearchHit<Date> {
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ format: 'uuid' }) workspaceId: string;
  @ApiProperty({ example: 'Fix the failing invoice test' }) title: string;
  @ApiProperty({ example: 14, description: 'The best-matching event of the session' }) seq: number;
  @ApiProperty({ example: 'tool.end' }) type: string;
  @ApiProperty() ts: Date;
  @ApiProperty({ example: 'the «invoice» total was off by a cent after «rounding»', description: 'The matches between « and »' }) snippet: string;
}

export class SessionSearchResponseDto implements SessionSearchResponse<Date> {
  @ApiProperty({ type: [SessionSearchHitDto], description: `Best first, at most ${SESSION_SEARCH_LIMITS.maxResults}` }) items: SessionSearchHitDto[];
  @ApiProperty({ example: false, description: 'The search deadline ended the search early: the items are the ones found by then' }) partial: boolean;
}
