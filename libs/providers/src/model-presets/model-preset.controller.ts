import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { CreateModelPresetDto, ModelPresetDto, ModelPresetListDto, UpdateModelPresetDto } from './model-preset.dto';
import { ModelPresetService } from './model-preset.service';

const PRESET_ID = { name: 'presetId', format: 'uuid', description: 'A preset of this team (another team\'s id answers 404)' } as const;

@ApiTags('model-presets')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input, or UNKNOWN_MODEL naming the known models' })
@Controller('v1/teams/:teamId/model-presets')
export class ModelPresetController {
  constructor(private readonly presets: ModelPresetService) {}

  @Get()
  @Access('team', 'teamId', 'viewer')
  @ApiOperation({ summary: 'The team\'s model presets, and the catalog of models they may use' })
  @ApiOkResponse({ type: ModelPresetListDto })
  listModelPresets(@CurrentAccess() access: AccessGrant): Promise<ModelPresetListDto> {
    return this.presets.list(access);
  }

  @Post()
  @Access('team', 'teamId', 'admin')
  @ApiOperation({ summary: 'Add a preset (owners and admins)' })
  @ApiBody({ type: CreateModelPresetDto, examples: { fast: { summary: 'Fast, with thinking', value: { name: 'Fast review', model: 'deepseek-v4-flash', thinking: true } } } })
  @ApiCreatedResponse({ type: ModelPresetDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the name is taken in this team; QUOTA_EXCEEDED: the team has the most presets it may keep' })
  createModelPreset(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Body() body: CreateModelPresetDto,
    @ClientIp() ip: string | null,
  ): Promise<ModelPresetDto> {
    return this.presets.create(principal, access, body, ip);
  }

  @Patch(':presetId')
  @Access('team', 'teamId', 'admin')
  @ApiOperation({ summary: 'Change a preset\'s name, model or thinking (owners and admins)' })
  @ApiParam(PRESET_ID)
  @ApiBody({ type: UpdateModelPresetDto, examples: { pro: { summary: 'Switch to the stronger model', value: { model: 'deepseek-v4-pro', thinking: false } } } })
  @ApiOkResponse({ type: ModelPresetDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such preset in this team' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the name is taken in this team' })
  updateModelPreset(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('presetId', new ParseUUIDPipe()) presetId: string,
    @Body() body: UpdateModelPresetDto,
    @ClientIp() ip: string | null,
  ): Promise<ModelPresetDto> {
    return this.presets.update(principal, access, presetId, body, ip);
  }

  @Delete(':presetId')
  @HttpCode(204)
  @Access('team', 'teamId', 'admin')
  @ApiOperation({ summary: 'Delete a preset (owners and admins); sessions made with it keep their model' })
  @ApiParam(PRESET_ID)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such preset in this team' })
  deleteModelPreset(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('presetId', new ParseUUIDPipe()) presetId: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    return this.presets.remove(principal, access, presetId, ip);
  }
}
