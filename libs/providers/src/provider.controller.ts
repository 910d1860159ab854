import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNoContentResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { ProviderStatusDto, SetProviderKeyDto, SUPPORTED_PROVIDERS } from './provider.dto';
import { ProviderKeyService } from './provider-key.service';

@ApiTags('providers')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@ApiParam({ name: 'provider', enum: SUPPORTED_PROVIDERS })
@Controller('v1/teams/:teamId/providers/:provider')
export class ProviderController {
  constructor(private readonly keys: ProviderKeyService) {}

  @Get()
  @Access('team', 'teamId', 'viewer')
  @ApiOkResponse({ type: ProviderStatusDto, description: 'Only whether a key is set' })
  getProviderKey(@CurrentAccess() access: AccessGrant, @Param('provider') provider: string): Promise<ProviderStatusDto> {
    return this.keys.status(access, provider);
  }

  @Put()
  @Access('team', 'teamId', 'admin')
  @ApiOkResponse({ type: ProviderStatusDto, description: 'Stored encrypted; the key is not echoed' })
  setProviderKey(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('provider') provider: string,
    @Body() body: SetProviderKeyDto,
    @ClientIp() ip: string | null,
  ): Promise<ProviderStatusDto> {
    return this.keys.set(principal, access, provider, body.apiKey, ip);
  }

  @Delete()
  @HttpCode(204)
  @Access('team', 'teamId', 'admin')
  @ApiNoContentResponse({ description: 'Removed' })
  deleteProviderKey(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('provider') provider: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    return this.keys.remove(principal, access, provider, ip);
  }
}
