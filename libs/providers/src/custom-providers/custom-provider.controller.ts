import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { CreateCustomProviderDto, CustomProviderDto, CustomProviderListDto, DiscoveredModelListDto, UpdateCustomProviderDto } from './custom-provider.dto';
import { CustomProviderService } from './custom-provider.service';

const PROVIDER_ID = { name: 'providerId', format: 'uuid', description: "A provider of this team (another team's id answers 404)" } as const;
const VLLM_EXAMPLE = {
  name: 'Local vLLM',
  baseUrl: 'http://127.0.0.1:8000/v1',
  models: [{ id: 'Qwen/Qwen2.5-Coder-32B-Instruct', contextWindow: 32768 }],
};
const GATEWAY_EXAMPLE = {
  name: 'Gateway',
  baseUrl: 'https://llm-gateway.example.org/v1',
  apiKey: 'sk-gateway-key',
  models: [{ id: 'gpt-4.1-mini', contextWindow: 1_000_000, maxOutput: 32768, price: { input: 0.4, cacheHit: 0.1, output: 1.6 } }],
};

// Besides DeepSeek (its key at /providers/deepseek), a team's own OpenAI-compatible providers.
@ApiTags('providers')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input; INVALID_PROVIDER_URL; INVALID_PROVIDER_MODELS' })
@Controller('v1/teams/:teamId/providers')
export class CustomProviderController {
  constructor(private readonly providers: CustomProviderService) {}

  @Get()
  @Access('team', 'teamId', 'viewer')
  @ApiOperation({ summary: "The team's own OpenAI-compatible providers (never their keys: only whether one is set)" })
  @ApiOkResponse({ type: CustomProviderListDto })
  listCustomProviders(@CurrentAccess() access: AccessGrant): Promise<CustomProviderListDto> {
    return this.providers.list(access);
  }

  @Post()
  @Access('team', 'teamId', 'admin')
  @ApiOperation({ summary: 'Add an OpenAI-compatible provider: a self-hosted vLLM or Ollama, or a gateway (owners and admins)' })
  @ApiBody({ type: CreateCustomProviderDto, examples: { vllm: { summary: 'A self-hosted vLLM (its host in PROVIDER_ALLOWED_INTERNAL_HOSTS)', value: VLLM_EXAMPLE }, gateway: { summary: 'A gateway with a key and prices', value: GATEWAY_EXAMPLE } } })
  @ApiCreatedResponse({ type: CustomProviderDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the name is taken in this team; QUOTA_EXCEEDED: the team has the most providers it may keep' })
  createCustomProvider(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Body() body: CreateCustomProviderDto,
    @ClientIp() ip: string | null,
  ): Promise<CustomProviderDto> {
    return this.providers.create(principal, access, body, ip);
  }

  @Get('custom/:providerId')
  @Access('team', 'teamId', 'viewer')
  @ApiOperation({ summary: 'One of the team\'s providers' })
  @ApiParam(PROVIDER_ID)
  @ApiOkResponse({ type: CustomProviderDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such provider in this team' })
  getCustomProvider(@CurrentAccess() access: AccessGrant, @Param('providerId', new ParseUUIDPipe()) providerId: string): Promise<CustomProviderDto> {
    return this.providers.get(access, providerId);
  }

  @Patch('custom/:providerId')
  @Access('team', 'teamId', 'admin')
  @ApiOperation({ summary: "Change a provider's name, base URL, key (null removes it) or models (owners and admins)" })
  @ApiParam(PROVIDER_ID)
  @ApiBody({ type: UpdateCustomProviderDto, examples: { key: { summary: 'Replace the key', value: { apiKey: 'sk-new-key' } }, models: { summary: 'Replace the model list', value: { models: [{ id: 'llama3.1:8b', contextWindow: 131072 }] } } } })
  @ApiOkResponse({ type: CustomProviderDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such provider in this team' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the name is taken, or a preset uses a model the change removes' })
  updateCustomProvider(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('providerId', new ParseUUIDPipe()) providerId: string,
    @Body() body: UpdateCustomProviderDto,
    @ClientIp() ip: string | null,
  ): Promise<CustomProviderDto> {
    return this.providers.update(principal, access, providerId, body, ip);
  }

  @Delete('custom/:providerId')
  @HttpCode(204)
  @Access('team', 'teamId', 'admin')
  @ApiOperation({ summary: 'Delete a provider (owners and admins); sessions using it fail their next run with PROVIDER_GONE' })
  @ApiParam(PROVIDER_ID)
  @ApiNoContentResponse({ description: 'Deleted, with its key' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such provider in this team' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: model presets use it (named in the message)' })
  deleteCustomProvider(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('providerId', new ParseUUIDPipe()) providerId: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    return this.providers.remove(principal, access, providerId, ip);
  }

  @Post('custom/:providerId/models/fetch')
  @HttpCode(200)
  @Access('team', 'teamId', 'admin')
  @ApiOperation({ summary: "Read the provider's GET /models with its key, to fill the model list (nothing is saved; owners and admins)" })
  @ApiParam(PROVIDER_ID)
  @ApiOkResponse({ type: DiscoveredModelListDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such provider in this team' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'PROVIDER_MODELS_UNAVAILABLE: refused, unreachable, key rejected, or not a model list' })
  fetchCustomProviderModels(@CurrentAccess() access: AccessGrant, @Param('providerId', new ParseUUIDPipe()) providerId: string): Promise<DiscoveredModelListDto> {
    return this.providers.fetchModels(access, providerId);
  }
}
