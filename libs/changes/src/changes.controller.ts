import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiOkResponse, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { AgentChangeDto, AgentChangeListDto, AgentChangeRestoreDto } from './changes.dto';
import { ChangesService } from './changes.service';

@ApiTags('changes')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get('sessions/:id/changes')
  @Access('session', 'id', 'viewer')
  @ApiOkResponse({ type: AgentChangeListDto, description: "The session's recorded file changes with both sides, oldest first" })
  listSessionChanges(@Param('id') id: string): Promise<AgentChangeListDto> {
    return this.changes.listBySession(id);
  }

  @Get('changes/:id')
  @Access('change', 'id', 'viewer')
  @ApiOkResponse({ type: AgentChangeDto, description: 'One change with its before and after text (what a diff card shows)' })
  getChange(@Param('id') id: string): Promise<AgentChangeDto> {
    return this.changes.get(id);
  }

  @Post('changes/:id/accept')
  @HttpCode(200)
  @Access('change', 'id', 'member')
  @ApiOkResponse({ type: AgentChangeDto, description: 'Marked accepted; the file is left as it is' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CHANGE_ALREADY_DECIDED: it was rejected or reverted' })
  acceptChange(@CurrentPrincipal() principal: Principal, @CurrentAccess() access: AccessGrant, @Param('id') id: string): Promise<AgentChangeDto> {
    return this.changes.accept(principal, access, id);
  }

  @Post('changes/:id/reject')
  @HttpCode(200)
  @Access('change', 'id', 'member')
  @ApiOkResponse({ type: AgentChangeDto, description: 'The earlier content is back in the workspace; the agent is told on its next request' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CHANGE_CONFLICT (error.current and error.recorded carry both versions) or CHANGE_ALREADY_DECIDED' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'CHANGE_NOT_RESTORABLE: the earlier side was binary, a directory or too large to record' })
  rejectChange(@CurrentPrincipal() principal: Principal, @CurrentAccess() access: AccessGrant, @Param('id') id: string): Promise<AgentChangeDto> {
    return this.changes.reject(principal, access, id);
  }

  @Post('runs/:id/revert')
  @HttpCode(200)
  @Access('run', 'id', 'member')
  @ApiOkResponse({ type: AgentChangeRestoreDto, description: "Every still-applied change of the run undone, newest first (all or nothing); empty when there was none" })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CHANGE_CONFLICT: a file changed since the run wrote it; nothing was restored' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'CHANGE_NOT_RESTORABLE' })
  revertRun(@CurrentPrincipal() principal: Principal, @CurrentAccess() access: AccessGrant, @Param('id') id: string): Promise<AgentChangeRestoreDto> {
    return this.changes.revertRun(principal, access, id);
  }
}
