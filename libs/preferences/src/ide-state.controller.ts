import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiPayloadTooLargeResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, CurrentPrincipal, type Principal } from '@h/identity';
import { IdeStateResponseDto, PutIdeStateDto } from './preferences.dto';
import { PreferencesService } from './preferences.service';

@ApiTags('ide')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1/workspaces/:id/ide-state')
export class IdeStateController {
  constructor(private readonly preferences: PreferencesService) {}

  @Get()
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: 'The caller\'s own IDE state in this workspace ({} until one is stored)' })
  @ApiOkResponse({ type: IdeStateResponseDto })
  getIdeState(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<IdeStateResponseDto> {
    return this.preferences.ideState(principal.userId, id);
  }

  // Viewers too: the state is the caller's own, not the workspace's.
  @Put()
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: 'Replace the caller\'s own IDE state in this workspace (at most IDE_STATE_MAX_BYTES of JSON)' })
  @ApiOkResponse({ type: IdeStateResponseDto })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'IDE_STATE_TOO_LARGE: over IDE_STATE_MAX_BYTES (the message names the limit)' })
  putIdeState(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: PutIdeStateDto): Promise<IdeStateResponseDto> {
    return this.preferences.putIdeState(principal.userId, id, body.state);
  }
}
