import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, ClientIp, CurrentAccess, CurrentPrincipal, UserOnly } from '../access/access.decorators';
import type { AccessGrant, Principal } from '../access/principal';
import { CreatedTokenDto, CreateTokenDto, TokenListDto } from './token.dto';
import { TokenService } from './token.service';

// Tokens are managed from a browser session only, so a leaked token cannot mint more tokens.
@ApiTags('tokens')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1/teams/:teamId/tokens')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Get()
  @UserOnly()
  @Access('team', 'teamId', 'member')
  @ApiOkResponse({ type: TokenListDto, description: 'Active tokens of the team (prefixes only)' })
  listTokens(@CurrentAccess() access: AccessGrant): Promise<TokenListDto> {
    return this.tokens.list(access);
  }

  @Post()
  @UserOnly()
  @Access('team', 'teamId', 'member')
  @ApiCreatedResponse({ type: CreatedTokenDto, description: 'The secret is in this response only' })
  createToken(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Body() body: CreateTokenDto,
    @ClientIp() ip: string | null,
  ): Promise<CreatedTokenDto> {
    return this.tokens.create(principal, access, body, ip);
  }

  @Delete(':id')
  @HttpCode(204)
  @UserOnly()
  @Access('team', 'teamId', 'member')
  @ApiNoContentResponse({ description: 'Revoked; it stops working at once' })
  revokeToken(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id', new ParseUUIDPipe()) id: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    return this.tokens.revoke(principal, access, id, ip);
  }
}
