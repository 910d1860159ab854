import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import type { ApiToken, CreatedApiToken, ListResponse, TokenScope } from '@h/contracts';
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
    description: 'read = viewer, write = member, admin = admin; never more than the creator’s own role',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  @IsIn(TOKEN_SCOPES, { each: true })
  scopes?: string[];

  @ApiPropertyOptional({ format: 'uuid', description: 'Bind the token to one workspace of the team' })
  @IsOptional()
  @IsUUID()
  workspaceId?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 365, description: 'Days until it expires; omit for no expiry' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(365)
  expiresInDays?: number;
}

export class TokenDto implements ApiToken<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Public part of the token, shown in lists' }) prefix: string;
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
  @ApiProperty({ description: 'The whole token. Shown once; store it now.' }) secret: string;
}
