import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { TOKEN_SCOPE_INFO, type ApiToken, type CreatedApiToken, type ListResponse, type TokenScope } from '@h/contracts';
import { TOKEN_SCOPES } from '../access/principal';

export class CreateTokenDto {
  @ApiProperty({ example: 'ci-bot', minLength: 1, maxLength: 80 })
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiPropertyOptional({
    enum: TOKEN_SCOPES,
    isArray: true,
    default: ['read', 'write'],
    example: ['run'],
    description:
      'Each scope includes the ones before it (read < run < write < admin): ' +
      TOKEN_SCOPES.map((s) => `${s}: ${TOKEN_SCOPE_INFO[s].allows}`).join(' ') +
      ' A viewer may create read tokens, a member up to write, an admin or owner admin ones.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TOKEN_SCOPES.length)
  @IsIn(TOKEN_SCOPES, { each: true })
  scopes?: string[];

  @ApiPropertyOptional({ format: 'uuid', description: 'Bind the token to one workspace of the team' })
  @IsOptional()
  @IsUUID()
  workspaceId?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 365, description: 'Days until it expires; omit for no expiry', example: 90 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(365)
  expiresInDays?: number;
}

export class TokenDto implements ApiToken<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'ci-bot' }) name: string;
  @ApiProperty({ description: 'Public part of the token, shown in lists', example: 'k3m9x2p7q4wz' }) prefix: string;
  @ApiProperty({ enum: TOKEN_SCOPES, isArray: true }) scopes: TokenScope[];
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) workspaceId: string | null;
  @ApiProperty({ nullable: true, type: Date }) expiresAt: Date | null;
  @ApiProperty({ nullable: true, type: Date }) lastUsedAt: Date | null;
  @ApiProperty({ format: 'uuid' }) createdById: string;
  @ApiProperty() createdAt: Date;
}

export class TokenListDto implements ListResponse<TokenDto> {
  @ApiProperty({ type: [TokenDto] }) items: TokenDto[];
}

export class CreatedTokenDto implements CreatedApiToken<Date> {
  @ApiProperty({ type: TokenDto }) token: TokenDto;
  @ApiProperty({ description: 'The whole token. Shown once; store it now.', example: 'h_k3m9x2p7q4wz_4f8Jq0vX2bN7yR1sT6wZ9cA3dE5gHk' }) secret: string;
}
